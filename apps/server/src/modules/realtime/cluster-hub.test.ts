import type { PermissionId } from "@ess/domain";
import { describe, expect, it } from "vitest";
import type { ClusterBus } from "../../cluster/bus.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { createHealthReminders } from "../system/health-reminders.ts";
import { clusterHub } from "./cluster-hub.ts";
import { createRealtimeHub } from "./realtime-hub.ts";

/** Processes joined as PostgreSQL would join them: each notice reaches the others, later, as JSON. */
function memoryBuses(count: number): ClusterBus[] {
  const handlers = Array.from({ length: count }, () => new Map<string, (data: unknown) => unknown>());
  return handlers.map((mine, i) => ({
    origin: `process-${i}`,
    broadcast<T, R>(topic: string, handler: (data: T) => R) {
      mine.set(topic, handler as (data: unknown) => unknown);
      return (data: T) => {
        const answer = handler(data);
        const wire = JSON.stringify(data);
        for (const other of handlers) if (other !== mine) setImmediate(() => other.get(topic)?.(JSON.parse(wire)));
        return answer;
      };
    },
    listen() {},
    onGap() {},
    close: async () => {},
  }));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const admin: AuthContext = {
  sessionId: 1,
  userId: 7,
  tenantId: 1,
  username: "admin",
  name: "",
  userType: 0,
  timeZone: null,
  roles: [],
  permissions: new Set<PermissionId>(["sys.health.view"]),
  mustChangePassword: false,
  org: null,
  parentUserId: null,
};

describe("the live-push hub of one process among several", () => {
  it("delivers a push published in one process to a subscriber of another, once", async () => {
    const [busA, busB] = memoryBuses(2) as [ClusterBus, ClusterBus];
    const a = clusterHub(createRealtimeHub(), busA);
    const localB = createRealtimeHub();
    const b = clusterHub(localB, busB);
    expect(a.hub.publish("/device/5/live/backOffice", { n: 0 })).toBe(0);
    const got: string[] = [];
    const unsubscribe = b.hub.subscribe("/device/5/live/backOffice", (_d, body) => got.push(body));
    await settle();
    // A counts B's subscriber, so live data is built for the device.
    expect(a.hub.subscriberCount("/device/5/live/backOffice")).toBe(1);
    expect(a.hub.publish("/device/5/live/backOffice", { n: 1 })).toBe(1);
    await settle();
    expect(got).toEqual(['{"n":1}']);
    unsubscribe();
    await settle();
    expect(a.hub.subscriberCount("/device/5/live/backOffice")).toBe(0);
    a.stop();
    b.stop();
  });

  it("learns what a process started earlier watches, and forgets a process that stopped", async () => {
    const [busA, busB] = memoryBuses(2) as [ClusterBus, ClusterBus];
    const localA = createRealtimeHub();
    localA.subscribe("/user/1/7/reminders", () => {});
    const a = clusterHub(localA, busA);
    const b = clusterHub(createRealtimeHub(), busB);
    await settle();
    expect(b.watchers("/user/1/7/reminders")).toBe(1);
    a.stop();
    await settle();
    expect(b.watchers("/user/1/7/reminders")).toBe(0);
    b.stop();
  });

  it("reminds of another process's stalled ingest once, naming that process", async () => {
    const [busA, busB] = memoryBuses(2) as [ClusterBus, ClusterBus];
    const localA = createRealtimeHub();
    const localB = createRealtimeHub();
    const a = clusterHub(localA, busA);
    const b = clusterHub(localB, busB);
    const t = (key: string) => key;
    const stalledInA = createHealthReminders({ hub: localA, t, client: "console-a", cluster: busA });
    createHealthReminders({ hub: localB, t, client: "console-b", cluster: busB });
    const got: string[] = [];
    localB.subscribe("/user/1/7/reminders", (_d, body) => got.push(body), admin);
    await settle();
    stalledInA({ kind: "stalled", silentS: 30, onlineByTenant: new Map([[1, 12]]) });
    await settle();
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0] as string).system).toEqual({ kind: "ingestStalled", client: "console-a", silentS: 30, devices: 12 });
    a.stop();
    b.stop();
  });
});
