import { type Campaign, campaignCreate } from "@ess/contracts";
import { Progress, Space, Tag } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type Values } from "../../../ui/crud/index.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { CampaignDevices } from "../components/campaign-devices.tsx";
import { DevicePreview } from "../components/device-preview.tsx";
import { firmwareFields } from "../components/firmware-fields.ts";
import { ScheduleTimes } from "../components/schedule-times.tsx";

const STATE_COLOUR: Record<string, string> = {
  scheduled: "default",
  running: "processing",
  waiting: "gold",
  paused: "orange",
  cancelled: "red",
  completed: "green",
};

/** Succeeded and failed of all, as one bar: how far the campaign is. */
function CampaignProgress({ c }: { c: Campaign }) {
  const done = c.counts.succeeded + c.counts.failed;
  const percent = c.counts.total === 0 ? 0 : Math.round((done / c.counts.total) * 100);
  const ok = c.counts.total === 0 ? 0 : Math.round((c.counts.succeeded / c.counts.total) * 100);
  return (
    <Space direction="vertical" size={0} data-testid={`campaign-progress-${c.id}`}>
      <Progress percent={percent} success={{ percent: ok }} size="small" style={{ width: 180 }} />
      <span data-testid={`campaign-counts-${c.id}`}>
        {c.counts.succeeded} ✓ · {c.counts.failed} ✗ · {c.counts.upgrading + c.counts.confirmed} ↻ · {c.counts.pending} … /{" "}
        {c.counts.total}
      </span>
    </Space>
  );
}

/** OTA campaigns: launch on a filtered set, watch progress live, pause, resume, cancel. */
export const campaignsCrud = defineCrud<Campaign>({
  id: "campaigns",
  ns: ["ota", "firmware"],
  list: API.ota.page,
  refetchMs: 2000,
  filters: [{ name: "name", label: "ota:name" }],
  columns: [
    { key: "name", title: "ota:name", sortable: true },
    { key: "versionCode", title: "ota:version", render: (c, t) => `${t(`enums:appType.${c.firmwareType}`)} ${c.versionCode}` },
    {
      key: "state",
      title: "ota:state",
      render: (c, t) => (
        <Tag color={STATE_COLOUR[c.state]} data-testid={`campaign-state-${c.id}`}>
          {t(`ota:campaignState.${c.state}`)}
        </Tag>
      ),
    },
    { key: "progress", title: "ota:progress", render: (c) => <CampaignProgress c={c} /> },
    { key: "excluded", title: "ota:excluded" },
    {
      key: "times",
      title: "ota:times",
      render: (c) => c.times.map((time) => formatDateTime(time)).join(" · "),
    },
    { key: "createTime", title: "ota:createTime", kind: "time", sortable: true },
  ],
  expand: (c) => <CampaignDevices campaignId={c.id} />,
  create: {
    title: "ota:launch",
    route: API.ota.issue,
    schema: campaignCreate,
    permission: "ota.send",
    success: "ota:launched",
    initial: () => ({ times: [new Date().toISOString()], batchSize: 50, batchIntervalS: 60, filter: {} }),
    fields: [
      { name: "name", label: "ota:name", required: true },
      ...firmwareFields("versionId"),
      { name: "times", label: "ota:times", required: true, input: (props) => <ScheduleTimes {...props} /> },
      { name: "batchSize", label: "ota:batchSize", kind: "number" },
      { name: "batchIntervalS", label: "ota:batchInterval", kind: "number" },
      { name: "filter.sn", label: "ota:sn" },
      {
        name: "filter.phaseType",
        label: "ota:phaseType",
        kind: "select",
        options: { values: [1, 2], labelKey: "enums:phaseType" },
      },
      {
        name: "filter.onlineStatus",
        label: "ota:onlineStatus",
        kind: "select",
        options: { values: [0, 1, 2], labelKey: "enums:onlineStatusFilter" },
      },
      { name: "preview", label: "ota:filter", input: ({ testId }) => <DevicePreview testId={testId} /> },
    ],
    toBody: (values: Values) => {
      const { preview: _, ...body } = values;
      return { ...body, times: ((values.times as (string | null)[] | undefined) ?? []).filter(Boolean) };
    },
  },
  actions: [
    {
      key: "pause",
      label: "ota:pause",
      permission: "ota.send",
      visible: (c) => ["scheduled", "running", "waiting"].includes(c.state),
      run: (c) => call(API.ota.pause, { body: { id: c.id } }),
    },
    {
      key: "resume",
      label: "ota:resume",
      permission: "ota.send",
      visible: (c) => c.state === "paused",
      run: (c) => call(API.ota.resume, { body: { id: c.id } }),
    },
    {
      key: "cancel",
      label: "ota:cancel",
      permission: "ota.send",
      danger: true,
      confirm: "ota:confirmCancel",
      visible: (c) => !["cancelled", "completed"].includes(c.state),
      run: (c) => call(API.ota.cancel, { body: { id: c.id } }),
    },
  ],
  actionsWidth: 260,
});
