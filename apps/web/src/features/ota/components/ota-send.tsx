import { CloudUploadOutlined } from "@ant-design/icons";
import { otaRoutes } from "@ess/contracts";
import { BCU_IDS, BMS_INDEX_MAX, FIRMWARE_TYPES, needsBcuId, needsBmsId } from "@ess/domain";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd";
import i18next from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { FormDialog, type FormSpec, useCan, type Values } from "../../../ui/crud/index.ts";

/** The firmware type of each version offered, so a form can ask for what the type needs. */
const typeOfVersion = new Map<number, number>();

/** Firmware versions (types 2–11) that have a package, as choices "MCU 1.45 · name". */
export const firmwareChoices = () => ({
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
export const versionNeeds = (need: (type: number) => boolean) => (values: Values) => {
  const type = typeOfVersion.get(values.versionId as number) ?? typeOfVersion.get(values.id as number);
  return type !== undefined && need(type);
};

/** Plain numbers as choices (BMS index, BCU id). */
export const numberChoices = (key: string, values: readonly number[]) => ({
  key,
  load: async () => values.map((v) => ({ value: v, label: String(v) })),
});

/**
 * "OTA upgrade" of one device: pick a firmware version (and BMS index / BCU id where its type
 * needs them) and send; the device's upgrade records then show its progress.
 */
export function OtaSendButton({ deviceId, sn }: { deviceId: number; sn: string }) {
  const { t } = useTranslation(["ota", "enums", "firmware"]);
  const can = useCan();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  if (!can("ota.send")) return null;
  const spec: FormSpec<{ id: number; sn: string }> = {
    title: "ota:sendTitle",
    route: API.ota.send,
    schema: otaRoutes.send.body,
    success: "ota:issued",
    fields: [
      {
        name: "id",
        label: "ota:version",
        kind: "select",
        required: true,
        options: firmwareChoices(),
      },
      {
        name: "bmsId",
        label: "ota:bmsId",
        kind: "select",
        options: numberChoices(
          "ota-bms",
          Array.from({ length: BMS_INDEX_MAX + 1 }, (_, i) => i),
        ),
        visible: versionNeeds(needsBmsId),
      },
      {
        name: "bcuId",
        label: "ota:bcuId",
        kind: "select",
        options: numberChoices("ota-bcu", BCU_IDS),
        visible: versionNeeds(needsBcuId),
      },
    ],
    initial: () => ({}),
    toBody: (values: Values) => ({ deviceId, ...values }),
  };
  return (
    <>
      <Button icon={<CloudUploadOutlined />} onClick={() => setOpen(true)} data-testid="ota-send">
        {t("ota:send")}
      </Button>
      {open && (
        <FormDialog
          spec={spec}
          record={{ id: deviceId, sn }}
          testId="ota-send-dialog"
          onClose={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            void queryClient.invalidateQueries({ queryKey: ["ota-records", deviceId] });
          }}
        />
      )}
    </>
  );
}
