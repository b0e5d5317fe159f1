import type { ReminderMessage } from "@ess/contracts";
import { GRID_REGISTRATION_STATES, type PermissionId } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthContext } from "../../src/modules/auth/auth.context.ts";
import { createGridReminders } from "../../src/modules/grid/grid-reminders.ts";
import { createRealtimeHub } from "../../src/modules/realtime/realtime-hub.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Procedures ALL-03-REJ (PIN differs: stop talking for that site) and ALL-04 (PIN matches: keep operating).
describe("grid client: registration PIN check", () => {
  let world: GridWorld;
  let refusedEdev: string;
  beforeAll(async () => {
    world = await startGridWorld({
      factor: 60,
      sites: [
        { sn: "PINBAD001", nmi: NMIS[0], pin: "111115", outOfBand: { pin: 332211 } },
        { sn: "PINGOOD01", nmi: NMIS[1], pin: "111115", outOfBand: { pin: 111115 } },
      ],
    });
    await waitUntil(() => world.alarms.length === 1, 15_000, "the PIN alarm");
    const bad = world.sim.control.endDevices().find((d) => d.lfdi === world.siteLfdi("PINBAD001"));
    refusedEdev = `/edev/${bad?.id}`;
  });
  afterAll(() => world?.close());

  it("marks the site pinMismatch and alarms once, naming the device", async () => {
    const { rows } = await world.db.query<{ state: number }>(
      "SELECT registered_state AS state FROM grid_site WHERE device_id = $1",
      [world.devices.get("PINBAD001")],
    );
    expect(rows[0]?.state).toBe(GRID_REGISTRATION_STATES.pinMismatch);
    expect(world.alarms).toEqual([expect.objectContaining({ sn: "PINBAD001", tenantId: 1 })]);
  });

  it("sends nothing more for the refused site while the other one keeps polling", async () => {
    const lastForBad = () =>
      world.sim.control.requests().filter((r) => r.path.startsWith(`${refusedEdev}/`) || r.path === refusedEdev);
    const before = lastForBad();
    // The Registration read is the last thing the refused site asked.
    expect(before.at(-1)?.path).toBe(`${refusedEdev}/rg`);
    const good = world.sim.control.endDevices().find((d) => d.lfdi === world.siteLfdi("PINGOOD01"));
    const goodRequests = () => world.sim.control.requests().filter((r) => r.path.startsWith(`/edev/${good?.id}/`));
    const goodBefore = goodRequests().length;
    // Five program poll periods (60 s each on the server's clock, a second each here) pass; on a
    // loaded machine the good site's rounds may take longer, so its five polls are waited for. The
    // message names where it stopped if they never come.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await waitUntil(() => goodRequests().length > goodBefore + 4, 15_000, "five more polls of the good site").catch((error) => {
      const last = goodRequests().slice(-3);
      throw new Error(
        `${error.message}; its last: ${last.map((r) => `${r.method} ${r.path} ${r.status ?? "unanswered"}`).join(", ")}`,
      );
    });
    expect(lastForBad()).toHaveLength(before.length);
    expect(world.sim.control.derWrites().filter((w) => `/edev/${w.endDeviceId}` === refusedEdev)).toHaveLength(0);
    const { rows } = await world.db.query<{ state: number }>(
      "SELECT registered_state AS state FROM grid_site WHERE device_id = $1",
      [world.devices.get("PINGOOD01")],
    );
    expect(rows[0]?.state).toBe(GRID_REGISTRATION_STATES.registered);
  });

  it("reminds the tenant's users who watch health, in their console's words", () => {
    const hub = createRealtimeHub();
    const got: ReminderMessage[] = [];
    const caller = (userId: number, permissions: string[]) =>
      ({ userId, tenantId: 1, permissions: new Set(permissions as PermissionId[]) }) as unknown as AuthContext;
    hub.subscribe(
      "/user/1/7/reminders",
      (_d, body) => got.push(JSON.parse(body) as ReminderMessage),
      caller(7, ["sys.health.view"]),
    );
    hub.subscribe("/user/1/8/reminders", (_d, body) => got.push(JSON.parse(body) as ReminderMessage), caller(8, []));
    const t = (key: string, values?: Record<string, unknown>) => `${key}${values ? JSON.stringify(values) : ""}`;
    createGridReminders({ hub, t: t as never })(world.alarms[0] as (typeof world.alarms)[number]);
    expect(got).toHaveLength(1);
    expect(got[0]?.title).toBe("health:grid.pinMismatchTitle");
    expect(got[0]?.content).toContain("PINBAD001");
    // The facts go along, so each console words the reminder in its user's language.
    expect(got[0]?.system).toEqual({ kind: "gridPinMismatch", sn: "PINBAD001" });
  });
});
