import { LOG_TYPES, type LogRecord } from "@ess/contracts";
import { OPERATION_IDS } from "@ess/domain/operations/operations.ts";
import { Descriptions, Tag } from "antd";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";

const typeOptions = { values: LOG_TYPES, labelKey: "auth:log.types" };
/** Operations by their names (`operations:user.save`); a line of an operation no longer known shows its id. */
const operationOptions = { values: OPERATION_IDS, labelKey: "operations:" };

/** The operation log (spec §3 Log) and the consoles' uploaded error logs. */
export const logsCrud = defineCrud<LogRecord>({
  id: "logs",
  ns: ["auth", "operations"],
  list: API.log.page,
  filters: [
    { name: "type", kind: "select", options: typeOptions },
    { name: "operator" },
    { name: "operation", kind: "select", options: operationOptions },
    { name: "ip" },
    { name: "status", kind: "number", label: "auth:log.httpStatus" },
    { name: "time", kind: "dateRange", range: ["from", "to"], label: "fields:time" },
  ],
  columns: [
    { key: "createTime", kind: "time", sortable: true },
    { key: "type", options: typeOptions },
    { key: "operatorName", title: "fields:operator" },
    { key: "operation", sortable: true, options: operationOptions },
    { key: "method", title: "auth:log.method" },
    { key: "requestUri", title: "fields:url", ellipsis: true, width: 220 },
    {
      key: "status",
      title: "auth:log.httpStatus",
      render: (l) => (l.status === null ? "—" : <Tag color={l.status < 400 ? "green" : "red"}>{l.status}</Tag>),
    },
    { key: "errorCode", title: "auth:log.errorCode" },
    { key: "durationMs", title: "auth:log.duration", sortable: true },
    { key: "ip" },
  ],
  expand: (l, t) => (
    <Descriptions column={1} size="small" bordered>
      <Descriptions.Item label={t("fields:params")}>
        <pre style={{ margin: 0, whiteSpace: "pre-wrap" }}>{JSON.stringify(l.params, null, 2)}</pre>
      </Descriptions.Item>
      <Descriptions.Item label={t("auth:log.userAgent")}>{l.userAgent ?? "—"}</Descriptions.Item>
      {l.message && <Descriptions.Item label={t("fields:message")}>{l.message}</Descriptions.Item>}
      {l.stack && (
        <Descriptions.Item label={t("fields:stack")}>
          <pre style={{ margin: 0, whiteSpace: "pre-wrap" }}>{l.stack}</pre>
        </Descriptions.Item>
      )}
    </Descriptions>
  ),
  remove: { route: API.log.del, permission: "sys.log.delete" },
  export: { route: API.log.export, permission: "sys.log.view", fileName: "operation-log.csv" },
});
