import type { deviceCreate, deviceEdit } from "@ess/contracts";
import { deviceModel } from "@ess/domain";
import type { z } from "zod";
import type { Db, Queryable } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { business, forbidden, notFound, ValidationError } from "../../http/errors.ts";
import { issueDeviceCredential } from "../../mqtt/device-credentials.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import type { DataScope } from "../scope/data-scope.ts";
import { type DeviceRow, findDevice } from "./device.repository.ts";

type Create = z.output<typeof deviceCreate>;
type Edit = z.output<typeof deviceEdit>;

/** The refusal of a second binding, naming who is bound now (a binding made meanwhile included). */
const alreadyBound = (device: DeviceRow, what: "user" | "installer") =>
  what === "user"
    ? business("devices:userAlreadyBound", { user: device.owner_name ?? "" })
    : business("devices:installerAlreadyBound", { installer: device.installer_name ?? "" });

const duplicateSn = () => new ValidationError([{ field: "sn", key: "devices:duplicateSn", values: { field: "sn" } }]);

/** The seller of a new device: the organisation named (which the caller may change) or the caller's own. */
async function sellerOf(db: Queryable, caller: AuthContext, scope: DataScope, orgId: number | null) {
  if (orgId !== null) {
    const org = await first<{ id: number }>(
      db,
      sql`SELECT o.id FROM organisation o WHERE o.id = ${orgId} AND o.deleted_at IS NULL AND o.kind <> 'installer'
            AND ${scope.organisations("o", true)}`,
    );
    if (!org) throw notFound();
    return org.id;
  }
  return scope.kind === "org" ? (caller.org?.id ?? null) : null;
}

/** The columns a registration sets, from the form or an import row. */
function registration(input: Omit<Create, "sn" | "orgId">) {
  const model = deviceModel(input.model);
  return {
    name: input.name,
    model: input.model,
    phase_type: model?.phaseType ?? null,
    remarks: input.remarks,
    time_zone: input.timeZone,
    dongle_type: input.dongleType,
    machine_type: input.machineType,
    battery_type: input.batteryType,
    country_code: input.countryCode,
    rated_power: input.ratedPower ?? model?.ratedPowerKw ?? null,
    load_capacity: input.loadCapacity,
    nmi: input.nmi,
    grid_company: input.gridCompany,
    installed_at: input.installedAt ?? null,
  };
}

export async function insertDevice(
  db: Queryable,
  tenantId: number,
  orgId: number | null,
  sn: string,
  input: Omit<Create, "sn" | "orgId">,
): Promise<number | null> {
  const r = registration(input);
  const row = await first<{ id: number }>(
    db,
    sql`INSERT INTO device (tenant_id, sn, org_id, name, model, phase_type, remarks, time_zone, dongle_type, machine_type,
                            battery_type, country_code, rated_power, load_capacity, nmi, grid_company, installed_at)
        VALUES (${tenantId}, ${sn}, ${orgId}, ${r.name}, ${r.model}, ${r.phase_type}, ${r.remarks}, ${r.time_zone},
                ${r.dongle_type}, ${r.machine_type}, ${r.battery_type}, ${r.country_code}, ${r.rated_power},
                ${r.load_capacity}, ${r.nmi}, ${r.grid_company}, ${r.installed_at})
        ON CONFLICT (sn) WHERE deleted_at IS NULL DO NOTHING RETURNING id`,
  );
  return row?.id ?? null;
}

export function createDeviceService(db: Db) {
  async function inScope(scope: DataScope, id: number): Promise<DeviceRow> {
    const row = await findDevice(db, scope, id);
    if (!row) throw notFound("devices:notFound");
    return row;
  }

  return {
    inScope,

    /** Registers the device and issues its broker secret together: no device exists that could never connect. */
    async create(caller: AuthContext, scope: DataScope, input: Create) {
      const orgId = await sellerOf(db, caller, scope, input.orgId);
      const { id, credential } = await db.transaction(async (tx) => {
        const id = await insertDevice(tx, caller.tenantId, orgId, input.sn, input);
        if (id === null) throw duplicateSn();
        return { id, credential: await issueDeviceCredential(tx, { id, sn: input.sn }) };
      });
      return { device: await inScope(scope, id), credential };
    },

    /** A new broker secret for a device the caller may edit; the old one stops working. */
    async resetSecret(scope: DataScope, id: number) {
      const device = await inScope(scope, id);
      return issueDeviceCredential(db, { id, sn: device.sn });
    },

    async edit(scope: DataScope, input: Edit) {
      await inScope(scope, input.id);
      const r = registration(input);
      await db.query(
        `UPDATE device SET name = $2, model = $3, phase_type = coalesce($4, phase_type), remarks = $5, time_zone = $6,
                dongle_type = $7, machine_type = $8, battery_type = $9, country_code = $10, rated_power = $11,
                load_capacity = $12, nmi = $13, grid_company = $14, status = $15,
                installed_at = coalesce($16, installed_at), updated_at = now()
          WHERE id = $1`,
        [
          input.id,
          r.name,
          r.model,
          r.phase_type,
          r.remarks,
          r.time_zone,
          r.dongle_type,
          r.machine_type,
          r.battery_type,
          r.country_code,
          r.rated_power,
          r.load_capacity,
          r.nmi,
          r.grid_company,
          input.status,
          r.installed_at,
        ],
      );
      return inScope(scope, input.id);
    },

    async remove(scope: DataScope, id: number) {
      await inScope(scope, id);
      await db.transaction(async (tx) => {
        await tx.query("UPDATE device SET deleted_at = now(), updated_at = now() WHERE id = $1", [id]);
        // A deleted device may no longer sign in to the broker.
        await tx.query("DELETE FROM device_credential WHERE device_id = $1", [id]);
      });
    },

    /**
     * Spec §2/§6: a device has one installer; another is bound only after an explicit unbind (both
     * audited). Binding the installer it already has changes nothing.
     */
    async bindInstaller(scope: DataScope, id: number, installerOrgId: number) {
      const device = await inScope(scope, id);
      const org = await first<{ id: number }>(
        db,
        sql`SELECT o.id FROM organisation o WHERE o.id = ${installerOrgId} AND o.kind = 'installer'
              AND o.deleted_at IS NULL AND ${scope.organisations("o")}`,
      );
      if (!org) throw notFound();
      if (device.installer_org_id === installerOrgId) return device;
      const { rowCount } = await db.query(
        // The installation date is the earlier of the installer's binding and the first connection.
        `UPDATE device SET installer_org_id = $2, installed_at = coalesce(installed_at, now()), updated_at = now()
          WHERE id = $1 AND installer_org_id IS NULL`,
        [id, installerOrgId],
      );
      if (rowCount === 0) throw alreadyBound(await inScope(scope, id), "installer");
      return inScope(scope, id);
    },

    async unbindInstaller(scope: DataScope, id: number) {
      const device = await inScope(scope, id);
      if (device.installer_org_id === null) throw business("devices:noInstallerBound");
      await db.query(
        // The device stays installed where it is: unbinding the installer keeps its installation date.
        "UPDATE device SET installer_org_id = NULL, updated_at = now() WHERE id = $1",
        [id],
      );
    },

    /** As for installers: a bound device refuses a second user until its user is unbound. */
    async bindUser(scope: DataScope, id: number, userId: number) {
      const device = await inScope(scope, id);
      const user = await first<{ id: number; parent_user_id: number | null; user_type: number }>(
        db,
        sql`SELECT u.id, u.parent_user_id, u.user_type FROM sys_user u
             WHERE u.id = ${userId} AND u.deleted_at IS NULL AND ${scope.users("u")}`,
      );
      if (!user) throw notFound();
      if (user.user_type !== 2 || user.parent_user_id !== null) {
        throw new ValidationError([{ field: "userId", key: "devices:notMasterUser", values: { field: "userId" } }]);
      }
      if (device.owner_user_id === userId) return device;
      const { rowCount } = await db.query(
        "UPDATE device SET owner_user_id = $2, user_bound_at = now(), updated_at = now() WHERE id = $1 AND owner_user_id IS NULL",
        [id, userId],
      );
      if (rowCount === 0) throw alreadyBound(await inScope(scope, id), "user");
      return inScope(scope, id);
    },

    async unbindUser(scope: DataScope, id: number) {
      const device = await inScope(scope, id);
      if (device.owner_user_id === null) throw business("devices:noUserBound");
      await db.query("UPDATE device SET owner_user_id = NULL, user_bound_at = NULL, updated_at = now() WHERE id = $1", [id]);
    },

    /** Spec §6: no rename as user without a bound user, nor as installer without a bound installer. */
    async rename(caller: AuthContext, scope: DataScope, id: number, as: "user" | "installer", name: string) {
      const device = await inScope(scope, id);
      if (caller.userType === 2 && as !== "user") throw forbidden();
      if (caller.userType === 1 && as !== "installer") throw forbidden();
      if (as === "user" && device.owner_user_id === null) throw business("devices:renameNoUser");
      if (as === "installer" && device.installer_org_id === null) throw business("devices:renameNoInstaller");
      await db.query("UPDATE device SET name = $2, updated_at = now() WHERE id = $1", [id, name]);
      return inScope(scope, id);
    },
  };
}
