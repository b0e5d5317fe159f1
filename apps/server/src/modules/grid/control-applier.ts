import {
  type ControlBase,
  type ControlTarget,
  controlTarget,
  FOUR_WIRE,
  POWER_COMMANDS,
  SETTING_RULE_REGISTERS,
  SHUTDOWN_STATE,
} from "@ess/domain";
import { type LeaseFence, requireLease } from "../../cluster/job-lease.ts";
import type { Db } from "../../db/db.ts";
import { currentSettings } from "../settings/current-settings.ts";
import type { DeviceWriter } from "../settings/device-writer.ts";
import { latestSystemState, sendRecorded } from "../settings/write-guards.ts";
import { getWrite, insertWrites, type NewWrite, type WriteRow } from "../settings/write-records.repository.ts";
import type { DeviceRequests } from "../telemetry/device-requests.ts";
import {
  type AppliedTarget,
  controlledDevice,
  type DeviceControlRow,
  deviceControl,
  endUnsentWrites,
  keysNotYetWritten,
  lockDeviceControl,
  saveDeviceControl,
  setControlWrites,
} from "./control-applier.repository.ts";

/**
 * How long a device's own values are asked for before the grid first writes them (then it writes
 * blind): long enough for a fleet to reconnect after the console restarted.
 */
const OWN_VALUE_WAIT_MS = 20_000;
const OWN_VALUE_RETRY_MS = 1000;

/** The author of the grid's writes in a device's change records (no user asked for them). */
export const GRID_AUTHOR = "IEEE 2030.5";

/**
 * How the device took the last change a control made, for the utility's response:
 * `acknowledged` every write taken; `refused` the device refused one; `timedOut` it did not answer;
 * `queued` offline, sent when it returns; `sent` waiting for its answer; `none` nothing was sent.
 */
export type ControlOutcome = "acknowledged" | "refused" | "timedOut" | "queued" | "sent" | "none";

export interface AppliedControl {
  /** Whether this call sent anything (false when the effective control was already applied). */
  changed: boolean;
  outcome: ControlOutcome;
  writes: WriteRow[];
  /** Fields the device's product cannot carry out (a partial opt-out for the utility). */
  notApplicable: ControlTarget["notApplicable"];
}

export function outcomeOf(states: readonly WriteRow["state"][]): ControlOutcome {
  if (states.length === 0) return "none";
  if (states.includes("refused")) return "refused";
  if (states.includes("timed_out")) return "timedOut";
  if (states.includes("queued")) return "queued";
  if (states.includes("sent")) return "sent";
  return "acknowledged";
}

type Change = WriteRow["changes"][number];
interface Plan {
  changes: Change[];
  command: number | null;
  next: Omit<DeviceControlRow, "write_ids">;
  /** Settings let go of whose own values were never known: the grid's writes of them still queued are ended unsent. */
  blindReleased: string[];
}

/**
 * What must be sent to go from what was applied to `target` (null: the control ended):
 * - a setting whose target value differs from the one last applied is sent;
 * - a setting the control no longer holds gets the device's own value back (when it was known;
 *   else it is `blindReleased`);
 * - the device's own value of a setting is kept from before the grid's first write of it;
 * - power: off when the control switches it off; on again when it no longer does, unless the
 *   device was already switched off then (`running`: its state before the grid's power-off).
 */
export function planControlChange(
  row: DeviceControlRow,
  target: ControlTarget | null,
  known: Readonly<Record<string, number | string>>,
  running: boolean | null = null,
): Plan {
  const before = row.applied?.settings ?? {};
  const wanted = target?.settings ?? {};
  const own = { ...row.own_values };
  const changes: Change[] = [];
  const blindReleased: string[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    if (before[key] === value) continue;
    if (!(key in own)) own[key] = known[key] ?? null;
    changes.push({ key, old: before[key] ?? known[key] ?? null, new: value });
  }
  for (const [key, value] of Object.entries(before)) {
    if (key in wanted) continue;
    const mine = own[key];
    if (mine !== undefined && mine !== null && mine !== value) changes.push({ key, old: value, new: mine });
    if (mine === undefined || mine === null) blindReleased.push(key);
    delete own[key];
  }
  const powerBefore = row.applied?.power ?? null;
  const powerWanted = target?.power ?? null;
  let command: number | null = null;
  let ownRunning = row.own_running;
  if (powerWanted === "off" && powerBefore !== "off") {
    command = POWER_COMMANDS.off;
    ownRunning = running;
  } else if (powerWanted !== "off" && powerBefore === "off") {
    command = ownRunning === false ? null : POWER_COMMANDS.on;
    ownRunning = null;
  }
  const applied: AppliedTarget | null = target ? { settings: wanted, power: target.power } : null;
  return {
    changes,
    command,
    next: {
      device_id: row.device_id,
      applied,
      own_values: own,
      own_running: ownRunning,
      not_applicable: target?.notApplicable ?? [],
    },
    blindReleased,
  };
}

/**
 * A step of the device writer before it sends what it queued for a device that has just come back
 * (`writer.beforeFlush`, in every process, since any may send a device's queue): the settings a
 * grid control holds whose own values could not be read before its first write of them are read
 * now, while the device still holds its own — when no write of the control may have reached it yet
 * — so that the control's end gives them back.
 */
export function readOwnValuesOnReturn(deps: { db: Db; requests: DeviceRequests | null }) {
  const { db } = deps;
  return async (deviceId: number): Promise<void> => {
    const stored = await deviceControl(db, deviceId);
    const held = stored?.row.applied?.settings ?? {};
    const blind = Object.keys(held).filter((k) => stored?.row.own_values[k] === null);
    if (blind.length === 0) return;
    const unwritten = await keysNotYetWritten(db, deviceId, blind, GRID_AUTHOR);
    const facts = await controlledDevice(db, deviceId);
    if (unwritten.length === 0 || !facts || facts.onlineStatus === 0) return;
    const known = await currentSettings(deps, facts, unwritten);
    await db.transaction(async (tx) => {
      const row = await lockDeviceControl(tx, facts.id, facts.tenantId);
      // Only what is still unknown and still held (the control may have changed or ended
      // meanwhile), and still not written (another process may have sent the queue meanwhile).
      const still = await keysNotYetWritten(tx, deviceId, unwritten, GRID_AUTHOR);
      const own = { ...row.own_values };
      const found = still.filter((k) => k in (row.applied?.settings ?? {}) && own[k] === null && known[k] !== undefined);
      if (found.length === 0) return;
      for (const k of found) own[k] = known[k] as number | string;
      // write_ids null keeps the control's writes as they are (saveDeviceControl coalesces).
      await saveDeviceControl(tx, { ...row, own_values: own, write_ids: null });
    });
  };
}

/**
 * Turns the effective control of a device into its settings, durably (docs/ARCHITECTURE.md,
 * "Grid controls on devices"). Writes go through the device writer as any change does: recorded,
 * sent when the device is online, queued for its return otherwise, ended acknowledged, refused or
 * timed out — authored by the grid, not by a user.
 */
export function createControlApplier(deps: {
  db: Db;
  writer: DeviceWriter;
  requests: DeviceRequests | null;
  queueTtlMs: number;
  /** How long own values are asked for (default OWN_VALUE_WAIT_MS). */
  ownValueWaitMs?: number;
}) {
  const { db } = deps;

  /**
   * Applies `base` (the site's effective DERControlBase now; null when no control is in force) to
   * the device. Sends only what changed from what was last applied, so calling it again with the
   * same control — after a restart too — sends nothing. Marks the device under the grid's control
   * while one is active, and gives it back its own values when the control ends. With `fence` (the
   * grid client's lease), nothing is recorded or sent unless the lease is still held under its
   * token when the change commits: a client whose lease was taken over throws LeaseLostError.
   */
  async function applyEffectiveControl(
    device: { id: number },
    base: ControlBase | null,
    fence: LeaseFence | null = null,
  ): Promise<AppliedControl> {
    const facts = await controlledDevice(db, device.id);
    if (!facts) throw new Error(`device ${device.id} not found`);
    let target = base ? controlTarget(facts, base) : null;
    const stored = await deviceControl(db, device.id);
    // The device's own values are read (fresh when online) only before the grid first writes them;
    // with them its wiring, which decides whether the per-phase limits apply.
    const unseen = Object.keys(target?.settings ?? {}).filter((k) => !(stored && k in stored.row.own_values));
    let known: Record<string, number | string> = {};
    if (base && unseen.length > 0) {
      const wiring = facts.product === "three" ? [SETTING_RULE_REGISTERS.three.wiring] : [];
      known = await currentSettings(deps, facts, [...unseen, ...wiring]);
      // Offline or not answering (reconnecting, e.g. after the console restarted): asked again
      // shortly, since a value not known now can never be given back when the control ends.
      const until = Date.now() + (deps.ownValueWaitMs ?? OWN_VALUE_WAIT_MS);
      while (unseen.some((k) => !(k in known)) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, OWN_VALUE_RETRY_MS));
        facts.onlineStatus = (await controlledDevice(db, device.id))?.onlineStatus ?? facts.onlineStatus;
        if (facts.onlineStatus !== 0) known = await currentSettings(deps, facts, [...unseen, ...wiring]);
      }
      facts.fourWire = facts.product === "three" && Number(known[SETTING_RULE_REGISTERS.three.wiring]) === FOUR_WIRE;
      target = controlTarget(facts, base);
    }

    // Whether it runs now matters only when the grid is about to switch it off.
    const state = target?.power === "off" && stored?.row.applied?.power !== "off" ? await latestSystemState(db, facts.id) : null;
    const running = state === null ? null : state !== SHUTDOWN_STATE;

    const recorded = await db.transaction(async (tx) => {
      const row = await lockDeviceControl(tx, facts.id, facts.tenantId);
      const plan = planControlChange(row, target, known, running);
      const expiresAt = new Date(Date.now() + deps.queueTtlMs);
      const common = {
        tenantId: facts.tenantId,
        deviceId: facts.id,
        bulkId: null,
        createdBy: null,
        createdByName: GRID_AUTHOR,
        expiresAt,
      };
      // Never delivered, a blind write of a setting let go of would hold the device to a control that is over.
      const unsent = await endUnsentWrites(tx, facts.id, plan.blindReleased, Object.keys(target?.settings ?? {}), GRID_AUTHOR);
      const writes: NewWrite[] = [];
      if (plan.changes.length > 0) writes.push({ ...common, kind: "setting", changes: plan.changes, command: null });
      if (plan.command !== null) writes.push({ ...common, kind: "command", changes: [], command: plan.command });
      const inserted = await insertWrites(tx, writes);
      await saveDeviceControl(tx, { ...plan.next, write_ids: inserted.length > 0 ? inserted.map((w) => w.id) : null });
      await requireLease(tx, fence);
      return { inserted, unsent };
    });
    for (const id of recorded.unsent) deps.writer.publish(await getWrite(db, id));

    const ended: WriteRow[] = [];
    for (const row of recorded.inserted) ended.push(await sendRecorded(deps, facts, row));
    const retried = await queueUnanswered(facts, ended, fence);
    const changed = recorded.inserted.length > 0;
    const outcome = changed ? outcomeOf(retried.map((w) => w.state)) : await lastOutcome(device.id);
    return { changed, outcome, writes: ended, notApplicable: target?.notApplicable ?? [] };
  }

  /**
   * A write the device did not answer is recorded again, queued: the device writer sends it when
   * the device is next heard from. The console may take a device for online that is not connected
   * (its connection died unseen, or the console itself restarted and the device has not yet come
   * back); a limit it never received must still reach it, or it exports freely for the whole
   * event while the console holds the limit for applied. Only once per change, and only while
   * that change is still the device's last (a newer one has writes of its own).
   */
  async function queueUnanswered(
    device: { id: number; tenantId: number },
    ended: WriteRow[],
    fence: LeaseFence | null,
  ): Promise<WriteRow[]> {
    const unanswered = ended.filter((w) => w.state === "timed_out" && w.refusal === "timeout");
    if (unanswered.length === 0) return ended;
    return db.transaction(async (tx) => {
      const row = await lockDeviceControl(tx, device.id, device.tenantId);
      const last = (row.write_ids ?? []).map(Number);
      if (last.join() !== ended.map((w) => Number(w.id)).join()) return ended;
      const again = await insertWrites(
        tx,
        unanswered.map((w) => ({
          tenantId: device.tenantId,
          deviceId: device.id,
          bulkId: null,
          createdBy: null,
          createdByName: GRID_AUTHOR,
          expiresAt: new Date(Date.now() + deps.queueTtlMs),
          kind: w.kind,
          changes: w.changes,
          command: w.command,
        })),
      );
      const now = ended.map((w) => (unanswered.includes(w) ? (again[unanswered.indexOf(w)] as WriteRow) : w));
      await setControlWrites(
        tx,
        device.id,
        now.map((w) => Number(w.id)),
      );
      await requireLease(tx, fence);
      for (const w of again) deps.writer.publish(w);
      return now;
    });
  }

  /**
   * Where a device stands with the grid, for the utility's responses: whether a control is active,
   * how the device took the last change one made (it moves on: queued → acknowledged on the
   * device's return) and what its product could not carry out.
   */
  async function controlState(
    deviceId: number,
  ): Promise<{ active: boolean; outcome: ControlOutcome; notApplicable: ControlTarget["notApplicable"] }> {
    const found = await deviceControl(db, deviceId);
    return {
      active: (found?.row.applied ?? null) !== null,
      outcome: outcomeOf(found?.writes.map((w) => w.state) ?? []),
      notApplicable: found?.row.not_applicable ?? [],
    };
  }
  const lastOutcome = async (deviceId: number) => (await controlState(deviceId)).outcome;

  return { applyEffectiveControl, controlState };
}

export type ControlApplier = ReturnType<typeof createControlApplier>;
