import { UploadOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Space } from "antd";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { CrudPage, useCan } from "../../../ui/crud/index.ts";
import { faultsCrud } from "../config/faults.crud.tsx";

/** The fault catalogue list, with the import of a file in the format its export writes. */
export default function FaultCataloguePage() {
  const { t } = useTranslation("faults");
  const { message } = App.useApp();
  const can = useCan();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);

  const importFile = async (file: File) => {
    let faults: unknown;
    try {
      faults = (JSON.parse(await file.text()) as { faults?: unknown }).faults;
    } catch {
      faults = undefined;
    }
    if (!Array.isArray(faults)) return void message.error(t("importInvalid"));
    try {
      const counts = await call(API.fault.import, { body: { faults } as never });
      void message.success(t("importDone", counts));
      void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") });
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      {can("fault.edit") && (
        <>
          <input
            ref={input}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="faults-import-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void importFile(file);
            }}
          />
          <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} data-testid="faults-import">
            {t("actions.import")}
          </Button>
        </>
      )}
      <CrudPage config={faultsCrud} />
    </Space>
  );
}
