import { API } from "@ess/contracts";
import { CONSOLE_COMMANDS, checkTariff } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { business, forbidden, notFound, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { dataScope } from "../scope/data-scope.ts";
import { finishWrite, insertWrites, toRecord } from "../settings/write-records.repository.ts";
import { findDeviceInScope } from "../telemetry/device-scope.ts";
import { revenueDays, saveTariff, tariffFor, tariffIdFor } from "./tariffs.repository.ts";

const EMPTY = (userId: number | null) => ({
  userId,
  isDefault: userId !== null,
  currency: "EUR",
  buy: [],
  sell: [],
  updatedAt: null,
});

/** A user the caller may see, as the owner of a tariff (a sub-user's prices are its master's). */
async function tariffOwner(db: Db, auth: AuthContext, userId: number): Promise<number> {
  const built = dataScope(auth).users("u").build(1);
  const { rows } = await db.query<{ id: number; parent: number | null }>(
    `SELECT u.id, u.parent_user_id AS parent FROM sys_user u WHERE u.id = $1 AND u.deleted_at IS NULL AND ${built.text}`,
    [userId, ...built.values],
  );
  const u = rows[0];
  if (!u) throw notFound();
  return u.parent ?? u.id;
}

/** Electricity prices per user with the tenant's default, and the revenue they give a device. */
export function registerTariffRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  bindRoute(app, API.tariff.get, async ({ input, auth }) => {
    const own = auth.userType === 2 ? (auth.parentUserId ?? auth.userId) : null;
    const userId = input.query.userId !== undefined ? await tariffOwner(db, auth, input.query.userId) : own;
    return (await tariffFor(db, auth.tenantId, userId)) ?? EMPTY(userId);
  });

  bindRoute(app, API.tariff.save, async ({ input, auth }) => {
    const { userId, currency, buy, sell } = input.body;
    // The default tariff is the tenant's: back office only.
    if (userId === null && auth.userType !== 0) throw forbidden();
    const owner = userId === null ? null : await tariffOwner(db, auth, userId);
    const problems = checkTariff({ buy, sell });
    if (problems.length > 0) throw new ValidationError(problems);
    await db.transaction((tx) =>
      saveTariff(tx, {
        tenantId: auth.tenantId,
        userId: owner,
        currency,
        updatedBy: auth.userId,
        buy: buy as { start: string; end: string; price: string }[],
        sell: sell as { start: string; end: string; price: string }[],
      }),
    );
    return (await tariffFor(db, auth.tenantId, owner)) ?? EMPTY(owner);
  });

  async function ownerOfDevice(deviceId: number) {
    const { rows } = await db.query<{ owner: number | null; parent: number | null }>(
      "SELECT d.owner_user_id AS owner, u.parent_user_id AS parent FROM device d LEFT JOIN sys_user u ON u.id = d.owner_user_id WHERE d.id = $1",
      [deviceId],
    );
    const r = rows[0];
    return r?.owner ? (r.parent ?? r.owner) : null;
  }

  bindRoute(app, API.tariff.ofDevice, async ({ input, auth }) => {
    const device = await findDeviceInScope(db, auth, input.query.deviceId);
    const owner = await ownerOfDevice(device.id);
    if (owner === null) throw business("tariffs:noUserBound");
    return (await tariffFor(db, device.tenantId, owner)) ?? EMPTY(owner);
  });

  bindRoute(app, API.tariff.revenue, async ({ input, auth }) => {
    const { deviceId, startDate, endDate } = input.query;
    const span = (Date.parse(endDate) - Date.parse(startDate)) / 86_400_000;
    if (!(span >= 0))
      throw new ValidationError([{ field: "endDate", key: "telemetry:endBeforeStart", values: { field: "endDate" } }]);
    if (span > 366)
      throw new ValidationError([{ field: "endDate", key: "telemetry:rangeTooLong", values: { field: "endDate", days: 366 } }]);
    const device = await findDeviceInScope(db, auth, deviceId);
    const timeZone = device.timeZone ?? "UTC";
    const tariff = await tariffIdFor(db, device.tenantId, await ownerOfDevice(device.id));
    const days = await revenueDays(db, { deviceId: device.id, timeZone, startDate, endDate, tariffId: tariff?.id ?? null });
    return { currency: tariff?.currency ?? "EUR", timeZone, days };
  });

  // Profit is the console's own figure: clearing it is done here at once and recorded among the
  // device's commands, acknowledged, so the change records say who cleared it and when.
  bindRoute(app, API.tariff.clearProfit, async ({ input, auth, request }) => {
    const device = await findDeviceInScope(db, auth, input.body.deviceId);
    const row = await db.transaction(async (tx) => {
      await tx.query("UPDATE device SET profit_cleared_at = now() WHERE id = $1", [device.id]);
      const [queued] = await insertWrites(tx, [
        {
          tenantId: device.tenantId,
          deviceId: device.id,
          bulkId: null,
          kind: "command",
          changes: [],
          command: CONSOLE_COMMANDS.clearProfit,
          createdBy: auth.userId,
          createdByName: auth.name || auth.username,
          expiresAt: null,
        },
      ]);
      return finishWrite(tx, queued?.id as number, "acknowledged");
    });
    if (!row) throw notFound();
    return toRecord(row, request.t);
  });
}
