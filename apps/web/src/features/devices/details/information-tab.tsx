import { getRegister } from "@ess/domain";
import { Alert, Descriptions, Segmented, Spin } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRegisterFormat } from "../../device-live/components/page-read-panel.tsx";
import { useDeviceValues } from "../hooks/use-device.ts";
import type { DeviceTabProps } from "./tab-registry.ts";

/**
 * The information views of spec §2 and the catalogue groups they show. Single-phase keys carry
 * groups named after the original pages' objects; they are matched by the words in them.
 */
const VIEWS = {
  runtime: ["system", "energy", "temperature"],
  basic: ["deviceInfo"],
  pv: ["pv"],
  battery: ["battery", "bms", "bcu"],
  grid: ["grid", "gridProtection", "gridSupport"],
  inverter: ["inverter"],
  load: ["load"],
  meter: ["meter"],
  generator: ["generator"],
} as const;
type View = keyof typeof VIEWS;

function viewOf(group: string): View | null {
  const g = group.toLowerCase();
  for (const [view, groups] of Object.entries(VIEWS) as [View, readonly string[]][]) {
    if (groups.some((name) => g === name.toLowerCase() || g.includes(name.toLowerCase()))) return view;
  }
  if (g.includes("powergrid")) return "grid";
  if (g.includes("photovoltaic")) return "pv";
  if (g.includes("operation")) return "runtime";
  return null;
}

/**
 * Runtime, basic, PV, battery (cells, temperatures, BMS units), grid, inverter, load, meter and
 * generator information from the newest reading: every register the caller's audience may view,
 * labelled from the catalogue, with units and enumeration labels in the chosen language.
 */
export default function InformationTab({ device }: DeviceTabProps) {
  const { t } = useTranslation(["devices", "registers", "enums"]);
  const values = useDeviceValues(device.id);
  const format = useRegisterFormat();
  const [view, setView] = useState<View>("runtime");
  if (values.isPending) return <Spin />;
  const all = values.data?.latest?.values;
  if (!all) return <Alert type="info" showIcon title={t("noReading")} />;
  const shown = Object.entries(all).filter(([id]) => {
    const r = getRegister(id);
    return r !== undefined && viewOf(r.group) === view;
  });
  return (
    <>
      <Segmented<View>
        value={view}
        onChange={setView}
        options={(Object.keys(VIEWS) as View[]).map((v) => ({ value: v, label: t(`views.${v}`) }))}
        style={{ marginBottom: 16 }}
        data-testid="information-views"
      />
      {shown.length === 0 ? (
        <Alert type="info" showIcon title={t("noValues")} />
      ) : (
        <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} data-testid={`information-${view}`}>
          {shown.map(([id, value]) => (
            <Descriptions.Item key={id} label={t(`registers:${id}`, { defaultValue: id })}>
              {format(id, value)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </>
  );
}
