import type { IeeeCommandRecord } from "@ess/contracts";
import { GRID_COMMAND_KINDS, GRID_COMMAND_MODES } from "@ess/domain";
import type { TFunction } from "i18next";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";

/** An enum value's label, or the number for a value newer than the labels (IEEE 2030.5 grows). */
const known = (prefix: string, value: number | null, t: TFunction) =>
  value === null ? "—" : t(`${prefix}.${value}`, { defaultValue: String(value) });

/**
 * Command records (spec §2): the controls a device's site received (or every site's in scope
 * when `sn` is absent), with what each asks and how the console answered.
 */
export const ieeeCommandsCrud = (sn: string | undefined) =>
  defineCrud<IeeeCommandRecord>({
    id: sn ? "ieee-commands" : "ieee-all-commands",
    ns: ["gridCentre"],
    list: API.ieee.commandPage,
    baseQuery: sn ? { sn } : {},
    filters: [
      ...(sn ? [] : [{ name: "sn", label: "fields:deviceSn" }]),
      { name: "time", kind: "dateRange", range: ["from", "to"], label: "gridCentre:columns.receivedTime" },
    ],
    columns: [
      ...(sn ? [] : [{ key: "sn", title: "gridCentre:columns.sn" }]),
      { key: "mrid", title: "gridCentre:columns.mrid", ellipsis: true, width: 160 },
      { key: "programMrid", title: "gridCentre:columns.programMrid", ellipsis: true, width: 140 },
      { key: "primacy", title: "gridCentre:columns.primacy" },
      {
        key: "kind",
        title: "gridCentre:columns.kind",
        options: { values: Object.values(GRID_COMMAND_KINDS), labelKey: "enums:gridCommandKind" },
      },
      {
        key: "mode",
        title: "gridCentre:columns.mode",
        options: { values: Object.values(GRID_COMMAND_MODES), labelKey: "enums:gridCommandMode" },
      },
      { key: "startTime", title: "gridCentre:columns.startTime", kind: "time", sortable: true },
      { key: "durationS", title: "gridCentre:columns.durationS" },
      {
        key: "eventStatus",
        title: "gridCentre:columns.eventStatus",
        render: (r, t) => known("enums:gridEventStatus", r.eventStatus, t),
      },
      {
        key: "responseStatus",
        title: "gridCentre:columns.responseStatus",
        render: (r, t) => known("enums:gridResponseStatus", r.responseStatus, t),
      },
      { key: "receivedTime", title: "gridCentre:columns.receivedTime", kind: "time", sortable: true },
    ],
    export: { route: API.ieee.commandExport, permission: "grid.export", fileName: "ieee-commands.xlsx" },
  });
