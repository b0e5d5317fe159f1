import { type AlarmRecord, alarmRemoveBody } from "@ess/contracts";
import dayjs, { type Dayjs } from "dayjs";
import { API } from "../../../api/api.ts";
import { type CrudConfig, defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { alarmDetails } from "../components/alarm-details.tsx";
import { DeviceStatusLabels } from "../components/device-status-labels.tsx";
import { levelTag } from "../components/level-tag.tsx";
import { levelOptions, removeActionOptions, statusOptions, systemTypeOptions } from "../options.ts";

const filters = (history: boolean): FieldDef[] => [
  { name: "sn", label: "alarms:columns.sn" },
  { name: "faultCode", kind: "number", label: "alarms:columns.code" },
  { name: "level", kind: "select", options: levelOptions, label: "alarms:columns.level" },
  { name: "systemType", kind: "select", options: systemTypeOptions, label: "alarms:columns.systemType" },
  ...(history ? [{ name: "status", kind: "select", options: statusOptions, label: "alarms:columns.status" } as FieldDef] : []),
  { name: "time", kind: "dateRange", range: ["from", "to"], label: "alarms:filters.timeRange" },
];

/**
 * Device alarms (spec §3 Fault info): the current ones (still open) or the whole history, with
 * each code's causes and remedy in the row, the device's status labels when a row is expanded,
 * export, and hiding or deleting one device's alarms of a code in a time range (asked first).
 */
export function alarmsCrud(history: boolean): CrudConfig<AlarmRecord> {
  return defineCrud<AlarmRecord>({
    id: history ? "alarm-history" : "alarms",
    ns: ["alarms"],
    list: API.alarm.page,
    baseQuery: history ? {} : { open: true },
    filters: filters(history),
    columns: [
      { key: "sn", title: "alarms:columns.sn" },
      { key: "deviceName", title: "alarms:columns.deviceName", ellipsis: true },
      { key: "code", title: "alarms:columns.code", sortable: true },
      { key: "level", title: "alarms:columns.level", sortable: true, render: (a, t) => levelTag(a.level, t) },
      { key: "systemType", title: "alarms:columns.systemType", options: systemTypeOptions },
      { key: "info", title: "alarms:columns.info", render: alarmDetails, width: 340 },
      { key: "status", title: "alarms:columns.status", options: statusOptions },
      { key: "occurredAt", title: "alarms:columns.occurredAt", kind: "time", sortable: true },
      ...(history ? [{ key: "clearedAt", title: "alarms:columns.clearedAt", kind: "time" as const, sortable: true }] : []),
      { key: "flapCount", title: "alarms:columns.flapCount" },
    ],
    expand: (a) => <DeviceStatusLabels deviceId={a.deviceId} />,
    export: { route: API.alarm.export, permission: "alarm.view", fileName: "alarms.csv" },
    actions: [
      {
        key: "remove",
        label: "alarms:remove.button",
        permission: "alarm.hide",
        danger: true,
        form: {
          title: "alarms:remove.button",
          route: API.alarm.remove,
          schema: alarmRemoveBody,
          permission: "alarm.hide",
          confirm: "alarms:remove.confirm",
          intro: "alarms:remove.intro",
          fields: [
            { name: "range", kind: "dateRange", label: "alarms:filters.timeRange", required: true },
            { name: "action", kind: "select", options: removeActionOptions, label: "alarms:remove.action", required: true },
          ],
          initial: (a) => ({ range: [dayjs(a?.occurredAt).subtract(1, "minute"), dayjs()], action: "hide" }),
          toBody: (v, a) => {
            const [begin, end] = (v.range as [Dayjs, Dayjs] | undefined) ?? [];
            return {
              deviceId: a?.deviceId,
              faultCode: a?.code,
              beginTime: begin?.valueOf(),
              endTime: end?.valueOf(),
              action: v.action,
            };
          },
        },
      },
    ],
    actionsWidth: 180,
  });
}
