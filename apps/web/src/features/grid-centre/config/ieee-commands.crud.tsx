import type { IeeeCommandRecord } from "@ess/contracts";
import { GRID_COMMAND_KINDS, GRID_COMMAND_MODES } from "@ess/domain";
import type { TFunction } from "i18next";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";
import { OneLine } from "../components/device-cells.tsx";

/** An enum value's label, or the number for a value newer than the labels (IEEE 2030.5 grows). */
const known = (prefix: string, value: number | null, t: TFunction) =>
  value === null ? "—" : t(`${prefix}.${value}`, { defaultValue: String(value) });

const SN_WIDTH = 136;

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
    // Widths sum to about scrollX: the list fits its drawer in a 1,600 px window in every language
    // (the longest single words, Italian and Spanish, set the status columns); narrower, it scrolls
    // inside. mRIDs are cut with an ellipsis, whole in their titles.
    columns: [
      ...(sn
        ? []
        : [
            {
              key: "sn",
              title: "gridCentre:columns.sn",
              width: SN_WIDTH,
              render: (r: IeeeCommandRecord) => <OneLine text={r.sn} />,
            },
          ]),
      { key: "mrid", title: "gridCentre:columns.mrid", ellipsis: true, width: 120 },
      { key: "programMrid", title: "gridCentre:columns.programMrid", ellipsis: true, width: 104 },
      { key: "primacy", title: "gridCentre:columns.primacy", width: 84 },
      {
        key: "kind",
        title: "gridCentre:columns.kind",
        width: 124,
        options: { values: Object.values(GRID_COMMAND_KINDS), labelKey: "enums:gridCommandKind" },
      },
      {
        key: "mode",
        title: "gridCentre:columns.mode",
        width: 96,
        options: { values: Object.values(GRID_COMMAND_MODES), labelKey: "enums:gridCommandMode" },
      },
      // Date above time: the space between them wraps.
      { key: "startTime", title: "gridCentre:columns.startTime", kind: "time", sortable: true, width: 96 },
      { key: "durationS", title: "gridCentre:columns.durationS", width: 84 },
      {
        key: "eventStatus",
        title: "gridCentre:columns.eventStatus",
        width: 124,
        render: (r, t) => known("enums:gridEventStatus", r.eventStatus, t),
      },
      // Without a width: it takes what the others leave.
      {
        key: "responseStatus",
        title: "gridCentre:columns.responseStatus",
        render: (r, t) => known("enums:gridResponseStatus", r.responseStatus, t),
      },
      { key: "receivedTime", title: "gridCentre:columns.receivedTime", kind: "time", sortable: true, width: 96 },
    ],
    scrollX: (sn ? 0 : SN_WIDTH) + 1080,
    export: { route: API.ieee.commandExport, permission: "grid.export", fileName: "ieee-commands.xlsx" },
  });
