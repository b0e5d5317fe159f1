import { QrcodeOutlined } from "@ant-design/icons";
import {
  type CreatedDevice,
  type DeviceRecord,
  deviceCreate,
  deviceEdit,
  type IssuedCredential,
  renameBody,
} from "@ess/contracts";
import { COUNTRY_AUSTRALIA } from "@ess/domain";
import { Popover, QRCode, Space, Tag } from "antd";
import { Link } from "react-router";
import { z } from "zod";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { type ColumnDef, defineCrud, type FieldDef, type FormSpec } from "../../../ui/crud/index.ts";
import { DEVICE_OPTIONS as O } from "../components/device-options.ts";
import { GridControlTag } from "../components/grid-control-tag.tsx";
import { showIssuedCredential } from "../components/issued-credential.ts";

const ONLINE_COLOUR = { 0: "default", 1: "green", 2: "blue" } as const;
const STATUS_COLOUR = { 0: "green", 1: "gold", 2: "default", 3: "red" } as const;
const col = (name: string) => `devices:columns.${name}`;

/** Registration fields; NMI and grid company only for Australian sites. */
const registrationFields: FieldDef[] = [
  { name: "name", required: true },
  { name: "model", kind: "select", options: O.model, required: true },
  { name: "timeZone", kind: "timeZone" },
  { name: "dongleType", kind: "select", options: O.dongleType },
  { name: "machineType" },
  { name: "batteryType", kind: "select", options: O.batteryType },
  { name: "countryCode", kind: "select", options: O.countryCode },
  { name: "ratedPower", kind: "number", help: "devices:ratedPowerHelp" },
  { name: "loadCapacity", kind: "number" },
  { name: "nmi", visible: (v) => v.countryCode === COUNTRY_AUSTRALIA },
  { name: "gridCompany", visible: (v) => v.countryCode === COUNTRY_AUSTRALIA },
  { name: "remarks", kind: "textarea" },
];

const RENAME_TITLE = { user: "devices:rename.user", installer: "devices:rename.installer" } as const;
const rename = (as: "user" | "installer"): FormSpec<DeviceRecord> => ({
  title: RENAME_TITLE[as],
  fields: [{ name: "name", label: "devices:rename.newName", required: true }],
  schema: renameBody,
  route: API.device.rename,
  initial: (r) => ({ name: r?.name ?? "" }),
  toBody: (v, r) => ({ id: r?.id, as, name: v.name }),
  permission: "device.rename",
});

export const DEVICE_COLUMNS: ColumnDef<DeviceRecord>[] = [
  {
    key: "sn",
    title: col("sn"),
    sortable: true,
    render: (r) => (
      <Space size={4}>
        <Link to={`/device/details/${r.id}`} data-testid={`device-link-${r.sn}`}>
          {r.sn}
        </Link>
        {/* The SN as a QR code, for the app's scan-to-bind and for labels. */}
        <Popover trigger="click" content={<QRCode value={r.sn} size={160} data-testid={`device-qr-${r.sn}`} />}>
          <QrcodeOutlined style={{ cursor: "pointer", color: "#8c8c8c" }} data-testid={`device-qr-open-${r.sn}`} />
        </Popover>
      </Space>
    ),
  },
  { key: "name", title: col("name"), sortable: true },
  { key: "model", title: col("model") },
  { key: "phaseType", title: col("phaseType"), options: O.phaseType },
  {
    key: "onlineStatus",
    title: col("onlineStatus"),
    sortable: true,
    render: (r, t) => (
      <Tag color={ONLINE_COLOUR[r.onlineStatus as 0 | 1 | 2]}>{t(`enums:onlineStatusFilter.${r.onlineStatus}`)}</Tag>
    ),
  },
  {
    key: "status",
    title: col("deviceStatus"),
    render: (r, t) => <Tag color={STATUS_COLOUR[r.status as 0 | 1 | 2 | 3]}>{t(`enums:devStatusFilter.${r.status}`)}</Tag>,
  },
  {
    key: "gridControl",
    title: col("gridControl"),
    render: (r, t) =>
      r.gridControl ? <GridControlTag control={r.gridControl} t={t} testId={`device-grid-control-${r.sn}`} /> : "—",
  },
  { key: "batteryChemistry", title: col("batteryChemistry"), options: O.batteryChemistry },
  { key: "batteryType", title: col("batteryType"), options: O.batteryType },
  { key: "countryCode", title: col("countryCode"), options: O.countryCode },
  { key: "timeZone", title: col("timeZone") },
  { key: "ratedPower", title: col("ratedPower"), sortable: true },
  { key: "ownerName", title: col("owner") },
  { key: "installerName", title: col("installer") },
  { key: "orgName", title: col("seller") },
  // One column per firmware part, as the devices report them (see the header's versions).
  { key: "versions.dongle", title: "devices:header.dongleVersion" },
  { key: "versions.mcu", title: "devices:header.mcuVersion" },
  { key: "versions.dsp", title: "devices:header.dspVersion" },
  { key: "versions.battery", title: "devices:header.batteryVersion" },
  { key: "installedAt", title: col("installedAt"), kind: "time" },
  { key: "createTime", title: col("createTime"), kind: "time", sortable: true },
];

/** The device list (spec §2 Device management) as a configuration of the generic list layer. */
export const deviceList = defineCrud<DeviceRecord>({
  id: "devices",
  // gridCentre: the wording of a grid control (the grid control column).
  ns: ["devices", "gridCentre"],
  list: API.device.page,
  filters: [
    { name: "name", label: col("name") },
    { name: "sn", label: col("sn") },
    { name: "onlineStatus", label: col("onlineStatus"), kind: "select", options: O.onlineStatus },
    { name: "status", label: col("deviceStatus"), kind: "select", options: O.status },
    { name: "phaseType", label: col("phaseType"), kind: "select", options: O.phaseType },
    { name: "batteryChemistry", label: col("batteryChemistry"), kind: "select", options: O.batteryChemistry },
    { name: "batteryType", label: col("batteryType"), kind: "select", options: O.batteryType },
    { name: "model", label: col("model"), kind: "select", options: O.model },
    { name: "utcOffset", label: col("timeZone"), kind: "select", options: O.utcOffset },
    { name: "owner", label: col("owner") },
    { name: "installerOrgId", label: col("installer"), kind: "select", options: O.installers },
    { name: "orgId", label: col("seller"), kind: "select", options: O.sellers },
    { name: "countryCode", label: col("countryCode"), kind: "select", options: O.countryCode },
    { name: "firmwareVersion", label: col("firmwareVersion") },
  ],
  columns: DEVICE_COLUMNS,
  create: {
    title: "devices:create",
    route: API.device.save,
    schema: deviceCreate,
    permission: "device.edit",
    fields: [{ name: "sn", required: true }, ...registrationFields],
    // The broker secret issued with the device is answered this once: the page's dialog shows it.
    onAnswer: (answer) => showIssuedCredential((answer as CreatedDevice).credential),
  },
  edit: {
    title: "devices:edit",
    route: API.device.edit,
    schema: deviceEdit,
    permission: "device.edit",
    fields: [
      { name: "sn", disabled: true },
      ...registrationFields,
      { name: "status", label: col("deviceStatus"), kind: "select", options: O.settableStatus },
    ],
    // The form edits the registration: what staff typed, not what the device reports (shown in the list).
    intro: "devices:editIntro",
    initial: (r) => ({
      ...r,
      model: r?.registered.model ?? null,
      ratedPower: r?.registered.ratedPower ?? null,
      countryCode: r?.registered.countryCode ?? null,
      status: r && r.status !== 2 ? r.status : 0,
    }),
    toBody: (v, r) => {
      const { sn: _sn, ...rest } = v;
      return { ...rest, id: r?.id };
    },
  },
  remove: { route: API.device.del, permission: "device.delete", confirm: "devices:confirmDelete" },
  actions: [
    // A bound device offers its unbind instead of a second bind (spec §2: unbind first; the server
    // refuses a second one, naming who is bound, should the list be older than the binding).
    {
      key: "bindInstaller",
      label: "devices:bindInstaller",
      permission: "device.bind",
      visible: (r) => r.installerOrgId === null,
      form: {
        title: "devices:bindInstaller",
        fields: [{ name: "installerOrgId", kind: "select", options: O.installers, required: true }],
        schema: z.object({ installerOrgId: z.number().int().min(1) }),
        route: API.device.bindInstaller,
        permission: "device.bind",
      },
    },
    {
      key: "unbindInstaller",
      label: "devices:unbindInstaller",
      permission: "device.bind",
      danger: true,
      visible: (r) => r.installerOrgId !== null,
      confirm: "devices:confirmUnbindInstaller",
      run: (r) => call(API.device.unbindInstaller, { body: { id: r.id } }),
    },
    {
      key: "bindUser",
      label: "devices:bindUser",
      permission: "device.bind",
      visible: (r) => r.ownerId === null,
      form: {
        title: "devices:bindUser",
        fields: [{ name: "userId", kind: "select", options: O.masterUsers, required: true }],
        schema: z.object({ userId: z.number().int().min(1) }),
        route: API.device.bindUser,
        permission: "device.bind",
      },
    },
    {
      key: "unbindUser",
      label: "devices:unbindUser",
      permission: "device.bind",
      danger: true,
      visible: (r) => r.ownerId !== null,
      confirm: "devices:confirmUnbindUser",
      run: (r) => call(API.device.unbindUser, { body: { id: r.id } }),
    },
    {
      key: "resetSecret",
      label: "devices:credentials.reset",
      permission: "device.edit",
      danger: true,
      confirm: "devices:credentials.confirmReset",
      run: (r) => call(API.device.resetSecret, { body: { id: r.id } }),
      success: "devices:credentials.resetDone",
      onAnswer: (answer) => showIssuedCredential(answer as IssuedCredential),
    },
    // Renaming as the user or the installer needs one bound (spec §6): said before any typing.
    {
      key: "renameUser",
      label: "devices:rename.user",
      permission: "device.rename",
      unavailable: (r) => (r.ownerId === null ? "devices:renameNoUser" : undefined),
      form: rename("user"),
    },
    {
      key: "renameInstaller",
      label: "devices:rename.installer",
      permission: "device.rename",
      unavailable: (r) => (r.installerOrgId === null ? "devices:renameNoInstaller" : undefined),
      form: rename("installer"),
    },
  ],
  export: { route: API.device.export, permission: "device.export", fileName: "devices.xlsx" },
  // Binding and renaming are in the row's "more" menu.
  rowButtons: ["edit", "delete"],
  actionsWidth: 200,
});
