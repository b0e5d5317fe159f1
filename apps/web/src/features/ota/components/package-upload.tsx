import { UploadOutlined } from "@ant-design/icons";
import type { StoredPackage } from "@ess/contracts";
import { PACKAGE_EXTENSIONS } from "@ess/domain";
import { Alert, Button, Space, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, uploadFile } from "../../../api/client.ts";

/** Sends a package (the upload route checks its size and type, and checksums it). */
export const uploadPackage = (file: File) =>
  uploadFile<StoredPackage>(`${API.firmware.upload.path}?fileName=${encodeURIComponent(file.name)}`, file);

/**
 * The package input of a version form: picks a file, uploads it at once and holds the stored
 * file's id as the field's value; shows its name, size and checksum, or why it was refused.
 */
export function PackageUpload({
  value,
  onChange,
  testId,
  initial,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
  initial?: StoredPackage | null;
}) {
  const { t } = useTranslation("firmware");
  const input = useRef<HTMLInputElement>(null);
  const [stored, setStored] = useState<StoredPackage | null>(initial ?? null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const uploaded = await uploadPackage(file);
      setStored(uploaded);
      onChange?.(uploaded.fileId);
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.fields[0]?.message ?? error.message) : (error as Error).message);
      onChange?.(undefined);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid={testId}>
      <input
        ref={input}
        type="file"
        // The button below opens it; the browser's own control (in the browser's language) stays hidden.
        style={{ display: "none" }}
        accept={PACKAGE_EXTENSIONS.map((e) => `.${e}`).join(",")}
        data-testid={`${testId}-file`}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
        {busy ? t("uploading") : t("upload")}
      </Button>
      {stored && value === stored.fileId && (
        <Typography.Text type="secondary" data-testid={`${testId}-stored`}>
          {t("uploaded", { name: stored.name, size: stored.size })} · {t("sha256")} {stored.sha256.slice(0, 16)}…
        </Typography.Text>
      )}
      {problem && <Alert type="error" showIcon title={problem} data-testid={`${testId}-error`} />}
    </Space>
  );
}
