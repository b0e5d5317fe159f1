import type { IeeeExchangeRecord } from "@ess/contracts";
import { buildPath } from "@ess/contracts/route.ts";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";
import { XmlView } from "../components/xml-view.tsx";

/** A count written as the reader's language writes numbers (43,200; 43.200; 43 200). */
function Count({ value }: { value: number }) {
  const { i18n } = useTranslation();
  return <span data-testid="ieee-reads">{value.toLocaleString(i18n.language)}</span>;
}

/** The resource types the aggregator client exchanges, offered in the type filter (matched as a part of the name). */
const RESOURCE_TYPES = [
  "DeviceCapability",
  "Time",
  "EndDeviceList",
  "EndDevice",
  "Registration",
  "ConnectionPoint",
  "FunctionSetAssignmentsList",
  "DERProgramList",
  "DERControlList",
  "DERList",
  "DefaultDERControl",
  "DERCapability",
  "DERSettings",
  "DERStatus",
  "DERAvailability",
  "MirrorUsagePoint",
  "MirrorMeterReading",
  "Response",
] as const;

/**
 * One device's documents of one direction (spec §2 received grid list, sent request list): newest
 * first, searchable by time range and resource type, each row opening its XML indented. A received
 * document read again unchanged shows how many reads it stands for and the last of them.
 */
export const ieeeExchangesCrud = (direction: "received" | "sent", sn: string) =>
  defineCrud<IeeeExchangeRecord>({
    id: `ieee-${direction}`,
    ns: ["gridCentre"],
    list: direction === "received" ? API.ieee.receivePage : API.ieee.sendPage,
    baseQuery: { sn },
    filters: [
      { name: "time", kind: "dateRange", range: ["from", "to"], label: "gridCentre:columns.time" },
      {
        name: "resource",
        label: "gridCentre:columns.resource",
        kind: "select",
        options: { key: "ieee-resource-types", load: async () => RESOURCE_TYPES.map((r) => ({ value: r, label: r })) },
      },
    ],
    columns: [
      { key: "time", title: "gridCentre:columns.time", kind: "time", sortable: true },
      // A poll answered as the one before it is counted on that row, not listed again.
      ...(direction === "received"
        ? [
            { key: "lastTime", title: "gridCentre:columns.lastTime", kind: "time" as const },
            {
              key: "reads",
              title: "gridCentre:columns.reads",
              render: (record: IeeeExchangeRecord) => <Count value={record.reads} />,
            },
          ]
        : []),
      { key: "method", title: "gridCentre:columns.method" },
      { key: "path", title: "gridCentre:columns.path" },
      { key: "status", title: "gridCentre:columns.status" },
      { key: "resource", title: "gridCentre:columns.resource" },
    ],
    expand: (record) => <XmlView xml={record.xml} />,
    export: {
      route: {
        ...(direction === "received" ? API.ieee.receiveExport : API.ieee.sendExport),
        path: buildPath((direction === "received" ? API.ieee.receiveExport : API.ieee.sendExport).path, { sn }),
      },
      permission: "grid.export",
      fileName: `ieee-${direction}-${sn}.xlsx`,
    },
  });
