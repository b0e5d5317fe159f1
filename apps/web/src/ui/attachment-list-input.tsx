import { DeleteOutlined, LinkOutlined, PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import { Alert, Button, Input, List, Space, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ACCEPT, uploadMedia, uploadProblem } from "./media-upload.ts";

/** One attachment as a form holds it: an uploaded medium or a link, with the name shown. */
export interface AttachmentValue {
  name: string;
  mediaId?: number | null;
  url?: string | null;
}

/**
 * A list of attachments (manuals, install videos): each is uploaded at once (the server checks
 * its type from the bytes) or given as a link, and named; the field's value is the list.
 */
export function AttachmentListInput({
  value,
  onChange,
  testId,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}) {
  const { t } = useTranslation("content");
  const items = Array.isArray(value) ? (value as AttachmentValue[]) : [];
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (next: AttachmentValue[]) => onChange?.(next);
  const update = (index: number, change: Partial<AttachmentValue>) =>
    set(items.map((item, i) => (i === index ? { ...item, ...change } : item)));

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const uploaded = await uploadMedia(file, "attachment");
      set([...items, { name: file.name.replace(/\.[^.]+$/, ""), mediaId: uploaded.id, url: null }]);
    } catch (error) {
      setProblem(uploadProblem(error));
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
        style={{ display: "none" }}
        accept={ACCEPT.attachment}
        data-testid={`${testId}-file`}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <List
        size="small"
        bordered
        dataSource={items}
        locale={{ emptyText: t("upload.none") }}
        renderItem={(item, index) => (
          <List.Item
            data-testid={`${testId}-item-${index}`}
            actions={[
              <Button
                key="remove"
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t("upload.remove")}
                onClick={() => set(items.filter((_, i) => i !== index))}
              />,
            ]}
          >
            <Space wrap>
              {item.mediaId ? <PaperClipOutlined /> : <LinkOutlined />}
              <Input
                size="small"
                value={item.name}
                placeholder={t("fields.attachmentName")}
                aria-label={t("fields.attachmentName")}
                onChange={(e) => update(index, { name: e.target.value })}
                data-testid={`${testId}-name-${index}`}
              />
              {item.mediaId ? (
                <Typography.Text type="secondary">#{item.mediaId}</Typography.Text>
              ) : (
                <Input
                  size="small"
                  style={{ minWidth: 260 }}
                  value={item.url ?? ""}
                  placeholder={t("fields.link")}
                  aria-label={t("fields.link")}
                  onChange={(e) => update(index, { url: e.target.value })}
                  data-testid={`${testId}-url-${index}`}
                />
              )}
            </Space>
          </List.Item>
        )}
      />
      <Space>
        <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid={`${testId}-upload`}>
          {busy ? t("upload.uploading") : t("upload.file")}
        </Button>
        <Button
          icon={<LinkOutlined />}
          onClick={() => set([...items, { name: "", mediaId: null, url: "" }])}
          data-testid={`${testId}-add-link`}
        >
          {t("upload.addLink")}
        </Button>
      </Space>
      {problem && <Alert type="error" showIcon title={problem} data-testid={`${testId}-error`} />}
    </Space>
  );
}
