import type { DerRecord, EndDeviceRecord, RecordedReading, RequestLogEntry, UtilityControl } from "@ess/utility-sim";
import { endpointMatches, type ProcedureRun } from "@ess/utility-sim";
import { expect } from "vitest";

/**
 * The checks the procedures name (criteria), made on what the utility server recorded. Each fails
 * with vitest's message; the names follow the published check types.
 */

/** all-steps-complete: every step ran and none is left waiting. */
export function allStepsComplete(run: ProcedureRun, expected: string[]): void {
  expect(run.pending).toEqual([]);
  expect(run.completed.map((s) => s.step).sort()).toEqual([...expected].sort());
}

/** end-device-contents: the site's EndDevice exists; its LFDI ends in the PEN; a ConnectionPoint id when asked. */
export function endDeviceContents(
  control: UtilityControl,
  lfdi: string,
  options: { pen?: string; connectionPointId?: string } = {},
): EndDeviceRecord {
  const device = control.endDevices().find((d) => d.lfdi === lfdi);
  expect(device, `EndDevice ${lfdi}`).toBeDefined();
  if (options.pen) expect(device?.lfdi.endsWith(options.pen)).toBe(true);
  if (options.connectionPointId) expect(device?.connectionPointId).toBe(options.connectionPointId);
  return device as EndDeviceRecord;
}

/** der-capability-contents / der-settings-contents / der-status-contents: present, with these fields. */
export function derContents(control: UtilityControl, endDeviceId: number, kind: keyof DerRecord, fields: string[] = []) {
  const device = control.endDevices().find((d) => d.id === endDeviceId);
  const value = device?.der[kind] as Record<string, unknown> | undefined;
  expect(value, `${kind} of EndDevice ${endDeviceId}`).toBeDefined();
  for (const field of fields) expect(value?.[field], `${kind}.${field}`).toBeDefined();
  return value as Record<string, unknown>;
}

/** Mirror roleFlags (hex) and reading units of the readings-* checks. */
export const READINGS = {
  siteActivePower: { role: "03", uom: 38 },
  siteReactivePower: { role: "03", uom: 63 },
  voltage: { role: "03", uom: 29 },
  derActivePower: { role: "49", uom: 38 },
  derReactivePower: { role: "49", uom: 63 },
} as const;

/** readings-der-stored-energy (storage procedures only): the DER mirror's Wh. */
export const STORED_ENERGY = { role: "49", uom: 72 } as const;

/** readings-*: at least `minimum` readings of that quantity arrived (optionally only after `after` ms). */
export function readingsAtLeast(
  control: UtilityControl,
  which: (typeof READINGS)[keyof typeof READINGS] | typeof STORED_ENERGY,
  minimum: number,
  after = 0,
): RecordedReading[] {
  const found = control
    .readings()
    .filter((r) => r.roleFlags === which.role && r.readingType?.uom === which.uom && r.receivedAt >= after);
  expect(found.length, `readings role ${which.role} uom ${which.uom}`).toBeGreaterThanOrEqual(minimum);
  return found;
}

/**
 * all-polls-at-correct-time, as published: per concrete path, a gap over 1.5 intervals is a miss and
 * a complete window of 5 intervals holds at most one; a window of 3 intervals holds at most 6
 * requests. Only first pages (no `s` or `s=0`) count.
 */
export function pollsAtCorrectTime(
  requests: RequestLogEntry[],
  options: { endpoints: string[]; method: string; intervalSeconds: number; startedAt: number },
): void {
  const interval = options.intervalSeconds * 1000;
  const firstPage = (r: RequestLogEntry) => !/(^|&)s=[1-9]/.test(r.query);
  const matching = requests.filter(
    (r) => r.method === options.method && firstPage(r) && options.endpoints.some((e) => endpointMatches(e, r.path)),
  );
  expect(matching.length, `${options.method} ${options.endpoints.join(" ")}`).toBeGreaterThan(0);
  for (const path of new Set(matching.map((r) => r.path))) {
    const times = matching.filter((r) => r.path === path).map((r) => r.at);
    const last = times.at(-1) as number;
    const missEnds = times.slice(1).filter((t, i) => t - (times[i] as number) > 1.5 * interval);
    for (let from = options.startedAt; from + 5 * interval <= last; from += 5 * interval)
      expect(missEnds.filter((t) => t >= from && t < from + 5 * interval).length, `missed polls of ${path}`).toBeLessThanOrEqual(
        1,
      );
    for (let from = options.startedAt; from < last; from += 3 * interval)
      expect(times.filter((t) => t >= from && t < from + 3 * interval).length, `polls of ${path}`).toBeLessThanOrEqual(6);
  }
}

/** Gaps (server seconds) between successive requests. */
export function gapsSeconds(requests: RequestLogEntry[]): number[] {
  return requests.slice(1).map((r, i) => (r.at - (requests[i] as RequestLogEntry).at) / 1000);
}
