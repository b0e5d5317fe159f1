import { API, decodeValues, frameFromStored } from "@ess/contracts";
import { audienceOfUserType, CATALOGUE_PAGES, getRegister, KEY_QUANTITIES } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { AppError, business, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { rightsOfCaller } from "../settings/visibility.ts";
import { rememberSettings } from "../settings/write-records.repository.ts";
import { checkDateRange } from "./date-range.ts";
import { type DeviceRequests, DeviceTimeoutError } from "./device-requests.ts";
import { findDeviceInScope } from "./device-scope.ts";
import { dayCurve, energyRecords, latestOf, onlineLogPage, quantitiesOf } from "./telemetry.repository.ts";

const productOfPage = new Map(CATALOGUE_PAGES.map((p) => [p.page, p.product === "three" ? 2 : 1]));

/**
 * Only the registers the caller's audience may view: the display configuration's overrides
 * (`modules/settings/visibility.ts`), else the catalogue's defaults.
 */
async function visibleValues<T>(db: Db, values: Record<string, T>, caller: { tenantId: number; userType: number }) {
  const rightsOf = await rightsOfCaller(db, caller);
  return Object.fromEntries(Object.entries(values).filter(([id]) => rightsOf(id).view)) as Record<string, T>;
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
      // The settings it reports become the old values of later changes (device_setting_value).
      await rememberSettings(
        db,
        device.id,
        Object.fromEntries(Object.entries(answer.values).filter(([id]) => getRegister(id)?.access === "readWrite")),
      );
      const values = await visibleValues(db, answer.values, auth);
      return { deviceId: device.id, sn: device.sn, ...answer, values, invalid: answer.invalid.filter((id) => id in values) };
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
                  values: await visibleValues(
                    db,
                    decodeValues(frameFromStored(row.ts.getTime(), row.seq, row.words)).values,
                    auth,
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
    checkDateRange(type, startDate, endDate);
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
