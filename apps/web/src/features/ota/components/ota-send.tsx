import { CloudUploadOutlined } from "@ant-design/icons";
import { otaRoutes } from "@ess/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { FormDialog, type FormSpec, useCan, type Values } from "../../../ui/crud/index.ts";
import { firmwareFields } from "./firmware-fields.ts";

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
    fields: [...firmwareFields("id")],
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
