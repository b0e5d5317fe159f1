import { BCU_IDS, BMS_INDEX_MAX, FIRMWARE_TYPES, needsBcuId, needsBmsId } from "@ess/domain";
import i18next from "i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import type { FieldDef, Values } from "../../../ui/crud/index.ts";

/** The firmware type of each version offered, so a form can ask for what the type needs. */
const typeOfVersion = new Map<number, number>();

/** Firmware versions (types 2–11) that have a package, as choices "MCU 1.45 · name". */
const firmwareChoices = () => ({
  key: "ota-firmware-versions",
  load: async () => {
    const page = await call(API.firmware.page, { query: { size: 500, sort: "createTime", order: "desc" } });
    return page.records
      .filter((v) => (FIRMWARE_TYPES as readonly number[]).includes(v.type) && v.package !== null)
      .map((v) => {
        typeOfVersion.set(v.id, v.type);
        return { value: v.id, label: `${i18next.t(`enums:appType.${v.type}`)} ${v.versionCode} · ${v.versionName}` };
      });
  },
});

/** Whether the version chosen in a form has a type that needs `need` (BMS index, BCU id). */
const versionNeeds = (need: (type: number) => boolean) => (values: Values) => {
  const type = typeOfVersion.get(values.versionId as number) ?? typeOfVersion.get(values.id as number);
  return type !== undefined && need(type);
};

/** Plain numbers as choices (BMS index, BCU id). */
const numberChoices = (key: string, values: readonly number[]) => ({
  key,
  load: async () => values.map((v) => ({ value: v, label: String(v) })),
});

const BMS_INDEXES = Array.from({ length: BMS_INDEX_MAX + 1 }, (_, i) => i);

/**
 * The firmware part of an upgrade form: the version, then the BMS index or BCU id only when the
 * chosen version's type needs one. `versionField` is the body's name for the version.
 */
export function firmwareFields(versionField: "id" | "versionId"): FieldDef[] {
  return [
    { name: versionField, label: "ota:version", kind: "select", required: true, options: firmwareChoices() },
    {
      name: "bmsId",
      label: "ota:bmsId",
      kind: "select",
      options: numberChoices("ota-bms", BMS_INDEXES),
      visible: versionNeeds(needsBmsId),
    },
    {
      name: "bcuId",
      label: "ota:bcuId",
      kind: "select",
      options: numberChoices("ota-bcu", BCU_IDS),
      visible: versionNeeds(needsBcuId),
    },
  ];
}
