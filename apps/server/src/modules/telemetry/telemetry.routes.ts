import { API, decodeValues, frameFromStored } from "@ess/contracts";
import { audienceOfUserType, CATALOGUE_PAGES, getRegister, KEY_QUANTITIES } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { AppError, business, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { type DeviceRequests, DeviceTimeoutError } from "./device-requests.ts";
import { findDeviceInScope } from "./device-scope.ts";
import { dayCurve, energyRecords, latestOf, onlineLogPage, quantitiesOf } from "./telemetry.repository.ts";

const DAY_MS = 86_400_000;
// Widest ranges per query type (days, months, years), so one call cannot scan a decade of days.
const MAX_SPAN_DAYS = { "0": 62, "1": 731, "2": 3660 } as const;

const productOfPage = new Map(CATALOGUE_PAGES.map((p) => [p.page, p.product === "three" ? 2 : 1]));

/** Only the registers the caller's audience may view (catalogue defaults per audience). */
function visibleValues<T>(values: Record<string, T>, userType: number): Record<string, T> {
  const audience = audienceOfUserType(userType);
  return Object.fromEntries(Object.entries(values).filter(([id]) => getRegister(id)?.view[audience] ?? false));
}

/** Key quantities whose registers the caller's audience may view. */
function visibleQuantities(quantities: Record<string, number | null>, userType: number, phaseType: 1 | 2 | null) {
  const audience = audienceOfUserType(userType);
  const product = phaseType === 1 ? "single" : "three";
  return Object.fromEntries(
    KEY_QUANTITIES.filter((k) => (k[product] as readonly string[]).every((id) => getRegister(id)?.view[audience])).map((k) => [
      k.column,
      quantities[k.column] ?? null,
    ]),
  );
}

/**
 * Device data routes: page reads through the device link, and readings, curves, energy and the
 * on/off-line log from the database; every one first finds the device in the caller's scope.
 */
export function registerTelemetryRoutes(app: FastifyInstance, deps: { db: Db; requests: DeviceRequests | null }) {
  const { db } = deps;

  bindRoute(app, API.deviceTelemetry.pageRead, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const page = input.query.val;
    if (device.phaseType !== null && productOfPage.get(page) !== device.phaseType) {
      throw new ValidationError([{ field: "val", key: "telemetry:pageNotForProduct", values: { field: "val", page } }]);
    }
    if (!deps.requests) throw new AppError("unavailable");
    if (device.onlineStatus === 0) throw business("telemetry:deviceOffline");
    try {
      const answer = await deps.requests.readPage(device.sn, page);
      return {
        deviceId: device.id,
        sn: device.sn,
        ...answer,
        values: visibleValues(answer.values, auth.userType),
        invalid: answer.invalid.filter((id) => getRegister(id)?.view[audienceOfUserType(auth.userType)]),
      };
    } catch (error) {
      if (error instanceof DeviceTimeoutError) throw new AppError("unavailable", "telemetry:deviceTimeout");
      throw error;
    }
  });

  bindRoute(app, API.deviceTelemetry.latest, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const row = await latestOf(db, device.id);
    return {
      deviceId: device.id,
      sn: device.sn,
      name: device.name,
      onlineStatus: device.onlineStatus,
      lastSeenAt: device.lastSeenAt?.getTime() ?? null,
      timeZone: device.timeZone,
      phaseType: device.phaseType,
      latest: row
        ? {
            ts: row.ts.getTime(),
            receivedAt: row.received_at.getTime(),
            quantities: visibleQuantities(quantitiesOf(row), auth.userType, device.phaseType),
            ...(input.query.values === "1"
              ? {
                  values: visibleValues(
                    decodeValues(frameFromStored(row.ts.getTime(), row.seq, row.words)).values,
                    auth.userType,
                  ),
                }
              : {}),
            invalid: row.invalid ?? [],
          }
        : null,
    };
  });

  bindRoute(app, API.deviceTelemetry.dayCurve, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const timeZone = device.timeZone ?? "UTC";
    return { timeZone, points: await dayCurve(db, device.id, timeZone, input.query.date) };
  });

  bindRoute(app, API.deviceTelemetry.energy, async ({ input, auth }) => {
    const { deviceId, type, startDate, endDate } = input.query;
    const span = (Date.parse(endDate) - Date.parse(startDate)) / DAY_MS;
    if (!(span >= 0)) {
      throw new ValidationError([{ field: "endDate", key: "telemetry:endBeforeStart", values: { field: "endDate" } }]);
    }
    if (span > MAX_SPAN_DAYS[type]) {
      throw new ValidationError([
        { field: "endDate", key: "telemetry:rangeTooLong", values: { field: "endDate", days: MAX_SPAN_DAYS[type] } },
      ]);
    }
    const device = await findDeviceInScope(db, auth, deviceId);
    return { timeZone: device.timeZone ?? "UTC", records: await energyRecords(db, device.id, type, startDate, endDate) };
  });

  bindRoute(app, API.deviceTelemetry.onlineLog, async ({ input, auth }) => {
    const { deviceId, current, size } = input.query;
    const device = await findDeviceInScope(db, auth, deviceId);
    const { records, total } = await onlineLogPage(db, device.id, current, size);
    return { records, total, size, current, pages: Math.ceil(total / size) };
  });
}
