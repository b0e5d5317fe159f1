import { DeleteOutlined, UploadOutlined } from "@ant-design/icons";
import type { MediaRecord } from "@ess/contracts";
import { Alert, Button, Image, Space } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ACCEPT, uploadMedia, uploadProblem } from "./media-upload.ts";

/**
 * A picture input of a form (a cover): uploads the chosen file at once, holds the stored
 * medium's id as the field's value and shows its thumbnail, or why the server refused it.
 */
export function ImageUploadInput({
  value,
  onChange,
  testId,
  initial,
  own = false,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
  initial?: MediaRecord | null;
  /** Upload as one's own picture (any signed-in user) rather than to the content media store. */
  own?: boolean;
}) {
  const { t } = useTranslation("content");
  const input = useRef<HTMLInputElement>(null);
  const [stored, setStored] = useState<MediaRecord | null>(initial ?? null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const uploaded = await uploadMedia(file, "image", own);
      setStored(uploaded);
      onChange?.(uploaded.id);
    } catch (error) {
      setProblem(uploadProblem(error));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  const shown = stored && value === stored.id ? stored : null;
  return (
    <Space direction="vertical" data-testid={testId}>
      <input
        ref={input}
        type="file"
        style={{ display: "none" }}
        accept={ACCEPT.image}
        data-testid={`${testId}-file`}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      {shown && (
        <Image
          src={shown.thumbnailUrl ?? shown.url}
          preview={{ src: shown.url }}
          width={160}
          alt={shown.name}
          data-testid={`${testId}-thumbnail`}
        />
      )}
      <Space>
        <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
          {busy ? t("upload.uploading") : t("upload.image")}
        </Button>
        {shown && (
          <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)} data-testid={`${testId}-remove`}>
            {t("upload.remove")}
          </Button>
        )}
      </Space>
      {problem && <Alert type="error" showIcon title={problem} data-testid={`${testId}-error`} />}
    </Space>
  );
}
