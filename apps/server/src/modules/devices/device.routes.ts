import { API } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { run, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { readWorkbook, writeWorkbook, XLSX_TYPE } from "../../workbooks/workbooks.ts";
import { dataScope, withOrganisationsRead } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";
import { readCsv } from "./csv-read.ts";
import {
  DEVICE_FROM,
  DEVICE_SELECT,
  DEVICE_SORT_COLUMNS,
  type DeviceRow,
  deviceFilters,
  findDevice,
  toDeviceRecord,
} from "./device.repository.ts";
import { createDeviceService } from "./device.service.ts";
import { importDevices, importTemplate } from "./device-import.ts";

const EXPORT_LIMIT = 100_000;
/**
 * The device list counts at least this many matches, and ten pages past the one shown (more show
 * as "240+"; see countLimit): each counted match is a device read, on every page request.
 */
const LIST_COUNT_AT_MOST = 200;
const EXPORT_COLUMNS = [
  "id",
  "sn",
  "name",
  "model",
  "phaseType",
  "onlineStatus",
  "deviceStatus",
  "batteryType",
  "batteryChemistry",
  "countryCode",
  "timeZone",
  "ratedPower",
  "owner",
  "installer",
  "seller",
  "firmwareVersion",
  "installedAt",
  "createTime",
] as const;

/**
 * Device management routes; every read and change finds its devices through the data scope.
 * `disconnectDevice` ends a device's open broker connection once its secret is reset (embedded broker only).
 */
export function registerDeviceRoutes(app: FastifyInstance, db: Db, disconnectDevice?: (sn: string) => void) {
  const service = createDeviceService(db);

  bindRoute(app, API.device.page, async ({ auth, input }) => {
    await refuseUnseen(db, dataScope(auth), { organisations: [input.query.orgId, input.query.installerOrgId] });
    return fetchPage<DeviceRow, ReturnType<typeof toDeviceRecord>>(
      db,
      {
        select: DEVICE_SELECT,
        from: DEVICE_FROM,
        where: deviceFilters(await withOrganisationsRead(db, dataScope(auth)), input.query),
        order: orderBy(input.query, DEVICE_SORT_COLUMNS, "d.created_at"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      input.query,
      toDeviceRecord,
    );
  });

  bindRoute(app, API.device.export, async ({ auth, input, reply, request }) => {
    await refuseUnseen(db, dataScope(auth), { organisations: [input.query.orgId, input.query.installerOrgId] });
    const { rows } = await run<DeviceRow>(
      db,
      sql`SELECT ${DEVICE_SELECT} FROM ${DEVICE_FROM} WHERE ${deviceFilters(await withOrganisationsRead(db, dataScope(auth)), input.query)}
          ${orderBy(input.query, DEVICE_SORT_COLUMNS, "d.created_at")} LIMIT ${EXPORT_LIMIT}`,
    );
    const t = request.t;
    const label = (name: string, value: number | null) => (value === null ? "" : t(`enums:${name}.${value}`));
    const file = await writeWorkbook(
      t("devices:exportSheet"),
      EXPORT_COLUMNS.map((c) => t(`devices:columns.${c}`)),
      rows.map((r) => [
        r.id,
        r.sn,
        r.name,
        r.model,
        label("phaseType", r.phase_type),
        label("onlineStatusFilter", r.online_status),
        label("devStatusFilter", r.shown_status),
        label("hvBatteryType", r.battery_type),
        label("batteryChemistry", r.battery_chemistry),
        label("countryCodeFilter", r.country_code),
        r.time_zone,
        r.rated_power,
        r.owner_name,
        r.installer_name,
        r.org_name,
        [r.dongle_version, r.mcu_version, r.dsp_version, r.battery_version].filter(Boolean).join(" / "),
        r.installed_at?.toISOString(),
        r.created_at.toISOString(),
      ]),
    );
    // An Excel workbook (spec: export of the filtered set to Excel); numbers stay numbers in it.
    reply.type(XLSX_TYPE).header("content-disposition", 'attachment; filename="devices.xlsx"').send(file);
    return "";
  });

  bindRoute(app, API.device.info, async ({ auth, input }) => {
    const row = await findDevice(db, dataScope(auth), input.query.id);
    if (!row) throw notFound("devices:notFound");
    return toDeviceRecord(row);
  });

  bindRoute(app, API.device.save, async ({ auth, input }) => {
    const { device, credential } = await service.create(auth, dataScope(auth), input.body);
    return { ...toDeviceRecord(device), credential };
  });
  bindRoute(app, API.device.resetSecret, async ({ auth, input }) => {
    const credential = await service.resetSecret(dataScope(auth), input.body.id);
    // A connection opened with the old secret does not outlive it.
    disconnectDevice?.(credential.sn);
    return credential;
  });
  bindRoute(app, API.device.edit, async ({ auth, input }) => toDeviceRecord(await service.edit(dataScope(auth), input.body)));
  bindRoute(app, API.device.del, async ({ auth, input }) => {
    await service.remove(dataScope(auth), input.body.id);
    return null;
  });

  bindRoute(app, API.device.importTemplate, async ({ reply, request }) => {
    // An Excel workbook, as the import's users fill it in (the import takes CSV too).
    reply
      .type(XLSX_TYPE)
      .header("content-disposition", 'attachment; filename="device-import-template.xlsx"')
      .send(await importTemplate(request.t("devices:exportSheet")));
    return "";
  });

  bindRoute(app, API.device.import, async ({ auth, input, request }) => {
    const scope = dataScope(auth);
    let orgId: number | null = scope.kind === "org" ? (auth.org?.id ?? null) : null;
    if (input.body.orgId !== null) {
      const { rows } = await run<{ id: number }>(
        db,
        sql`SELECT o.id FROM organisation o WHERE o.id = ${input.body.orgId} AND o.deleted_at IS NULL
              AND o.kind <> 'installer' AND ${scope.organisations("o", true)}`,
      );
      if (!rows[0]) throw notFound();
      orgId = rows[0].id;
    }
    const { format, content } = input.body;
    const table = format === "xlsx" ? await readWorkbook(Buffer.from(content, "base64")) : readCsv(content);
    return importDevices(db, request.t, { tenantId: auth.tenantId, orgId }, table);
  });

  bindRoute(app, API.device.installers, async ({ auth }) => {
    const { rows } = await run<{ id: number; name: string }>(
      db,
      sql`SELECT o.id, o.name FROM organisation o
           WHERE o.kind = 'installer' AND o.deleted_at IS NULL AND ${dataScope(auth).organisations("o")}
           ORDER BY o.name, o.id`,
    );
    return rows;
  });

  bindRoute(app, API.device.bindInstaller, async ({ auth, input }) =>
    toDeviceRecord(await service.bindInstaller(dataScope(auth), input.body.id, input.body.installerOrgId)),
  );
  bindRoute(app, API.device.unbindInstaller, async ({ auth, input }) => {
    await service.unbindInstaller(dataScope(auth), input.body.id);
    return null;
  });
  bindRoute(app, API.device.bindUser, async ({ auth, input }) =>
    toDeviceRecord(await service.bindUser(dataScope(auth), input.body.id, input.body.userId)),
  );
  bindRoute(app, API.device.unbindUser, async ({ auth, input }) => {
    await service.unbindUser(dataScope(auth), input.body.id);
    return null;
  });
  bindRoute(app, API.device.rename, async ({ auth, input }) =>
    toDeviceRecord(await service.rename(auth, dataScope(auth), input.body.id, input.body.as, input.body.name)),
  );
}
