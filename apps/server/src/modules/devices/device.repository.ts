import type { DeviceListFilters, DeviceRecord } from "@ess/contracts";
import { deviceModel } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { containsPattern, first, type Sql, sql } from "../../db/sql.ts";
import { activeOf, type SiteRow } from "../grid-centre/grid-centre.repository.ts";
import { type DataScope, devicesOfOrganisations } from "../scope/data-scope.ts";

export interface DeviceRow {
  id: number;
  sn: string;
  name: string;
  model: string | null;
  phase_type: number | null;
  online_status: number;
  shown_status: number;
  battery_type: number | null;
  battery_chemistry: number | null;
  dongle_type: number | null;
  machine_type: string;
  country_code: number | null;
  time_zone: string | null;
  rated_power: number | null;
  load_capacity: number | null;
  nmi: string;
  grid_company: string;
  remarks: string;
  dongle_version: string;
  mcu_version: string;
  dsp_version: string;
  battery_version: string;
  org_id: number | null;
  org_name: string | null;
  installer_org_id: number | null;
  installer_name: string | null;
  owner_user_id: number | null;
  owner_name: string | null;
  user_bound_at: Date | null;
  installed_at: Date | null;
  last_seen_at: Date | null;
  created_at: Date;
  registered_model: string | null;
  registered_rated_power: number | null;
  registered_country_code: number | null;
  reported_model: string | null;
  reported_rated_power: number | null;
  reported_country_code: number | null;
  identity_reported_at: Date | null;
  /** Whether a grid control is applied to the device (migration 0270), and the site's control in force. */
  vpp_controlled: boolean;
  active_control: SiteRow["active_control"];
  active_source: SiteRow["active_source"];
  active_since: Date | null;
  active_until: Date | null;
}

/** Device status as shown (spec §4): offline (2) whenever the device is not connected. */
export const SHOWN_STATUS = "(CASE WHEN d.online_status = 0 THEN 2 ELSE d.status END)";

/**
 * Model, rated power and country code as shown: the device's report, else what staff typed (the
 * stored `shown_*` columns of migration 0130, domain `shownIdentityValue`); both kept apart too.
 */
export const DEVICE_SELECT = sql.raw(
  `d.id, d.sn, d.name, d.shown_model AS model, d.phase_type, d.online_status, ${SHOWN_STATUS} AS shown_status,
   d.battery_type, d.battery_chemistry, d.dongle_type, d.machine_type, d.shown_country_code AS country_code, d.time_zone,
   d.shown_rated_power AS rated_power, d.load_capacity, d.nmi, d.grid_company,
   d.remarks, d.dongle_version, d.mcu_version, d.dsp_version, d.battery_version, d.org_id, so.name AS org_name,
   d.installer_org_id, io.name AS installer_name, d.owner_user_id, ou.username AS owner_name, d.user_bound_at,
   d.installed_at, d.last_seen_at, d.created_at, d.model AS registered_model, d.rated_power AS registered_rated_power,
   d.country_code AS registered_country_code, d.reported_model, d.reported_rated_power, d.reported_country_code,
   d.identity_reported_at, d.vpp_controlled, gs.active_control, gs.active_source, gs.active_since, gs.active_until`,
);
export const DEVICE_FROM = sql.raw(
  `device d LEFT JOIN organisation so ON so.id = d.org_id LEFT JOIN organisation io ON io.id = d.installer_org_id
   LEFT JOIN sys_user ou ON ou.id = d.owner_user_id LEFT JOIN grid_site gs ON gs.device_id = d.id`,
);
export const DEVICE_SORT_COLUMNS = {
  id: "d.id",
  sn: "d.sn",
  name: "d.name",
  createTime: "d.created_at",
  lastSeenAt: "d.last_seen_at",
  ratedPower: "d.shown_rated_power",
  onlineStatus: "d.online_status",
};

/** Every device condition starts here: not deleted and in the caller's data scope. */
export const deviceWhere = (scope: DataScope, extra: Sql = sql.raw("TRUE")) =>
  sql`d.deleted_at IS NULL AND ${scope.devices("d")} AND ${extra}`;

/** The list's filters (spec: device list), all in SQL. */
export function deviceFilters(scope: DataScope, q: DeviceListFilters): Sql {
  const like = (v: string) => containsPattern(v);
  const orgPath = (id: number) => sql`(SELECT path || '%' FROM organisation WHERE id = ${id})`;
  return deviceWhere(
    scope,
    sql.and([
      q.name !== undefined && sql`d.name ILIKE ${like(q.name)}`,
      q.sn !== undefined && sql`d.sn ILIKE ${like(q.sn)}`,
      q.onlineStatus !== undefined && sql`d.online_status = ${q.onlineStatus}`,
      q.status !== undefined && sql`${sql.raw(SHOWN_STATUS)} = ${q.status}`,
      q.phaseType !== undefined && sql`d.phase_type = ${q.phaseType}`,
      q.batteryType !== undefined && sql`d.battery_type = ${q.batteryType}`,
      q.batteryChemistry !== undefined && sql`d.battery_chemistry = ${q.batteryChemistry}`,
      q.model !== undefined && modelFilter(q.model),
      q.timeZone !== undefined && sql`d.time_zone ILIKE ${like(q.timeZone)}`,
      // The zones now at that many whole hours from UTC: the original's "East 8" is Shanghai and Perth.
      q.utcOffset !== undefined &&
        sql`d.time_zone IN (SELECT name FROM pg_timezone_names WHERE trunc(extract(epoch FROM utc_offset) / 3600) = ${q.utcOffset})`,
      q.owner !== undefined &&
        sql`d.owner_user_id IN (SELECT id FROM sys_user WHERE username ILIKE ${like(q.owner)} OR name ILIKE ${like(q.owner)})`,
      q.installerOrgId !== undefined && sql`d.installer_org_id = ${q.installerOrgId}`,
      q.orgId !== undefined &&
        devicesOfOrganisations("d", sql`SELECT id FROM organisation WHERE path LIKE ${orgPath(Number(q.orgId))}`),
      q.countryCode !== undefined && sql`d.shown_country_code = ${q.countryCode}`,
      q.firmwareVersion !== undefined &&
        sql`(d.dongle_version ILIKE ${like(q.firmwareVersion)} OR d.mcu_version ILIKE ${like(q.firmwareVersion)}
             OR d.dsp_version ILIKE ${like(q.firmwareVersion)} OR d.battery_version ILIKE ${like(q.firmwareVersion)})`,
    ]),
  );
}

/**
 * A catalogue model (the list offers them as choices) matches exactly, through its index; any other
 * text is a substring of the model shown.
 */
function modelFilter(text: string): Sql {
  const model = deviceModel(text);
  return model ? sql`d.shown_model = ${model.code}` : sql`d.shown_model ILIKE ${containsPattern(text)}`;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const toDeviceRecord = (r: DeviceRow): DeviceRecord => ({
  id: r.id,
  sn: r.sn,
  name: r.name,
  model: r.model,
  phaseType: r.phase_type,
  onlineStatus: r.online_status,
  status: r.shown_status,
  batteryType: r.battery_type,
  batteryChemistry: r.battery_chemistry,
  dongleType: r.dongle_type,
  machineType: r.machine_type,
  countryCode: r.country_code,
  timeZone: r.time_zone,
  ratedPower: r.rated_power,
  loadCapacity: r.load_capacity,
  nmi: r.nmi,
  gridCompany: r.grid_company,
  remarks: r.remarks,
  versions: { dongle: r.dongle_version, mcu: r.mcu_version, dsp: r.dsp_version, battery: r.battery_version },
  orgId: r.org_id,
  orgName: r.org_name,
  installerOrgId: r.installer_org_id,
  installerName: r.installer_name,
  ownerId: r.owner_user_id,
  ownerName: r.owner_name,
  userBoundAt: iso(r.user_bound_at),
  installedAt: iso(r.installed_at),
  lastSeenAt: iso(r.last_seen_at),
  createTime: r.created_at.toISOString(),
  registered: { model: r.registered_model, ratedPower: r.registered_rated_power, countryCode: r.registered_country_code },
  reported: {
    model: r.reported_model,
    ratedPower: r.reported_rated_power,
    countryCode: r.reported_country_code,
    batteryChemistry: r.battery_chemistry,
    at: iso(r.identity_reported_at),
  },
  // The site's control in force, once the applier has put it on the device.
  gridControl: r.vpp_controlled ? activeOf(r) : null,
});

/** One device in the caller's scope, or undefined (the caller then gets "not found"). */
export function findDevice(db: Queryable, scope: DataScope, id: number) {
  return first<DeviceRow>(db, sql`SELECT ${DEVICE_SELECT} FROM ${DEVICE_FROM} WHERE ${deviceWhere(scope, sql`d.id = ${id}`)}`);
}
