import { CopyOutlined } from "@ant-design/icons";
import { type FirmwareVersion, firmwareVersionCreate, firmwareVersionEdit } from "@ess/contracts";
import { isFirmwareType, LOCALES, VERSION_TYPES } from "@ess/domain";
import { App, Button, Descriptions, Space, Typography } from "antd";
import i18next from "i18next";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef, type FormSpec, type Values } from "../../../ui/crud/index.ts";
import { PackageUpload } from "../components/package-upload.tsx";

const typeOptions = { values: VERSION_TYPES, labelKey: "enums:appType" };
const stateOptions = { values: [0, 1], labelKey: "enums:upgradeVersionState" };
const phaseOptions = { values: [1, 2], labelKey: "enums:phaseType" };

/** The version number with its copy button ("Version number copied"). */
function VersionCode({ version }: { version: FirmwareVersion }) {
  const { message } = App.useApp();
  const copy = () =>
    void navigator.clipboard
      .writeText(version.versionCode)
      .then(() => message.success(i18next.t("firmware:copied")))
      .catch(() => message.info(version.versionCode));
  return (
    <Space>
      <span>{version.versionCode}</span>
      <Button
        size="small"
        type="text"
        icon={<CopyOutlined />}
        aria-label={i18next.t("firmware:copy")}
        onClick={copy}
        data-testid={`copy-version-${version.id}`}
      />
    </Space>
  );
}

/** The i18n key of the notes label for one language. */
const notesLabel = (lang: string) => ["firmware:notesLang", lang].join(".");

const fields = (record: FirmwareVersion | undefined): FieldDef[] => [
  { name: "type", label: "firmware:type", kind: "select", options: typeOptions, required: true },
  { name: "versionCode", label: "firmware:versionCode", required: true },
  { name: "versionName", label: "firmware:versionName", required: true },
  {
    name: "fileId",
    label: "firmware:package",
    required: true,
    visible: (v) => v.type === undefined || isFirmwareType(v.type as number),
    input: (props) => <PackageUpload {...props} initial={record?.package ?? null} />,
  },
  {
    name: "downloadUrl",
    label: "firmware:downloadUrl",
    visible: (v) => v.type !== undefined && !isFirmwareType(v.type as number),
  },
  {
    name: "storeUrl",
    label: "firmware:storeUrl",
    visible: (v) => v.type !== undefined && !isFirmwareType(v.type as number),
  },
  {
    name: "forceUpdate",
    label: "firmware:forceUpdate",
    kind: "switch",
    help: "firmware:forceUpdateHelp",
    visible: (v) => v.type !== undefined && !isFirmwareType(v.type as number),
  },
  {
    name: "minSupportedVersion",
    label: "firmware:minSupportedVersion",
    help: "firmware:minSupportedHelp",
    visible: (v) => v.type !== undefined && !isFirmwareType(v.type as number),
  },
  { name: "phaseType", label: "firmware:phaseType", kind: "select", options: phaseOptions, help: "firmware:phaseAny" },
  { name: "upgradeableFrom", label: "firmware:upgradeableFrom", help: "firmware:upgradeableAny" },
  { name: "state", label: "firmware:state", kind: "select", options: stateOptions },
  ...LOCALES.map((lang) => ({
    name: `notes.${lang}`,
    label: notesLabel(lang),
    kind: "textarea" as const,
  })),
];

/** Upgradeable versions are typed as a list separated by commas or spaces. */
const toBody = (values: Values, record: FirmwareVersion | undefined) => {
  const from = values.upgradeableFrom;
  const list = typeof from === "string" ? from.split(/[\s,;]+/).filter(Boolean) : Array.isArray(from) ? from : [];
  return { ...values, upgradeableFrom: list, ...(record ? { id: record.id } : {}) };
};

const form = (
  record: FirmwareVersion | undefined,
  spec: Omit<FormSpec<FirmwareVersion>, "fields">,
): FormSpec<FirmwareVersion> => ({
  ...spec,
  fields: fields(record),
});

/** Upgrade-info management (spec §2): app and firmware versions with their packages or links. */
export const versionsCrud = defineCrud<FirmwareVersion>({
  id: "versions",
  ns: ["firmware", "ota"],
  list: API.firmware.page,
  filters: [
    { name: "appType", label: "firmware:type", kind: "select", options: typeOptions },
    { name: "versionCode", label: "firmware:versionCode" },
    { name: "state", label: "firmware:state", kind: "select", options: stateOptions },
  ],
  columns: [
    { key: "type", title: "firmware:type", options: typeOptions, sortable: true },
    { key: "versionCode", title: "firmware:versionCode", sortable: true, render: (v) => <VersionCode version={v} /> },
    { key: "versionName", title: "firmware:versionName" },
    { key: "phaseType", title: "firmware:phaseType", options: phaseOptions },
    {
      key: "upgradeableFrom",
      title: "firmware:upgradeableFrom",
      render: (v, t) => (v.upgradeableFrom.length > 0 ? v.upgradeableFrom.join(", ") : t("firmware:upgradeableAny")),
    },
    { key: "state", title: "firmware:state", options: stateOptions },
    {
      key: "package",
      title: "firmware:package",
      render: (v) =>
        v.package ? (
          <Typography.Text>{`${v.package.name} · ${v.package.size}`}</Typography.Text>
        ) : (
          <Typography.Link href={v.downloadUrl ?? undefined} target="_blank">
            {v.downloadUrl}
          </Typography.Link>
        ),
    },
    { key: "createTime", title: "firmware:createTime", kind: "time", sortable: true },
  ],
  expand: (v, t) => (
    <Descriptions column={1} size="small" bordered>
      {v.package && <Descriptions.Item label={t("firmware:sha256")}>{v.package.sha256}</Descriptions.Item>}
      {v.storeUrl && <Descriptions.Item label={t("firmware:storeUrl")}>{v.storeUrl}</Descriptions.Item>}
      {!isFirmwareType(v.type) && (
        <Descriptions.Item label={t("firmware:forceUpdate")}>{t(v.forceUpdate ? "crud:yes" : "crud:no")}</Descriptions.Item>
      )}
      {v.minSupportedVersion && (
        <Descriptions.Item label={t("firmware:minSupportedVersion")}>{v.minSupportedVersion}</Descriptions.Item>
      )}
      {Object.entries(v.notes).map(([lang, text]) => (
        <Descriptions.Item key={lang} label={t(notesLabel(lang))}>
          {text}
        </Descriptions.Item>
      ))}
    </Descriptions>
  ),
  create: form(undefined, {
    title: "firmware:add",
    route: API.firmware.save,
    schema: firmwareVersionCreate,
    permission: "firmware.edit",
    initial: () => ({ type: 3, state: 0 }),
    toBody,
  }),
  edit: {
    ...form(undefined, {
      title: "firmware:edit",
      route: API.firmware.edit,
      schema: firmwareVersionEdit,
      permission: "firmware.edit",
      toBody,
    }),
    initial: (v) => ({
      type: v?.type,
      versionCode: v?.versionCode,
      versionName: v?.versionName,
      fileId: v?.package?.fileId,
      downloadUrl: v?.downloadUrl ?? undefined,
      phaseType: v?.phaseType ?? undefined,
      upgradeableFrom: v?.upgradeableFrom.join(", "),
      state: v?.state,
      notes: v?.notes,
      storeUrl: v?.storeUrl ?? undefined,
      forceUpdate: v?.forceUpdate ?? false,
      minSupportedVersion: v?.minSupportedVersion ?? undefined,
    }),
  },
  remove: { route: API.firmware.del, permission: "firmware.edit", confirm: "firmware:confirmDelete" },
});
