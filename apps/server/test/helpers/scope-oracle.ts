import type { World, WorldUser } from "./channel-world.ts";

/**
 * What each account of the world may see, worked out from the world's shape alone (never from
 * the server's SQL), so that the authorisation tests compare the server against an independent
 * reading of the rules of DESIGN §3.
 */
export interface Visible {
  organisations: Set<number>;
  users: Set<number>;
  devices: Set<number>;
}

function ancestors(world: World, orgKey: string | null): string[] {
  const chain: string[] = [];
  for (let key = orgKey; key; key = world.orgs.get(key)?.parent ?? null) chain.push(key);
  return chain;
}

export function visibleTo(world: World, caller: WorldUser): Visible {
  const all = (map: Map<string, { id: number }>) => new Set([...map.values()].map((v) => v.id));
  const channelOrgs = [...world.orgs.values()].filter((o) => o.kind !== "manufacturer");
  if (caller.type === 0) {
    return { organisations: new Set(channelOrgs.map((o) => o.id)), users: all(world.users), devices: all(world.devices) };
  }
  if (caller.type === 2) {
    const master = caller.master ?? caller.key;
    const users = [...world.users.values()].filter(
      (u) => u.key === caller.key || (caller.master === null && u.master === caller.key),
    );
    const devices = [...world.devices.values()].filter((d) => d.owner === master);
    return { organisations: new Set(), users: new Set(users.map((u) => u.id)), devices: new Set(devices.map((d) => d.id)) };
  }
  const own = caller.org as string;
  const below = (key: string | null) => ancestors(world, key).includes(own);
  const callerOrg = world.orgs.get(own);
  const organisations = channelOrgs.filter(
    (o) =>
      below(o.key) ||
      (callerOrg?.kind === "dealer" && o.kind === "installer" && o.showUnderDealers && o.parent === callerOrg.parent),
  );
  const users = [...world.users.values()].filter((u) => u.type !== 0 && below(u.org));
  const devices = [...world.devices.values()].filter((d) => below(d.org) || below(d.installer));
  return {
    organisations: new Set(organisations.map((o) => o.id)),
    users: new Set(users.map((u) => u.id)),
    devices: new Set(devices.map((d) => d.id)),
  };
}
