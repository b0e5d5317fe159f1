import type { FeedbackRecord } from "@ess/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Descriptions, Empty, Image, List, Modal, Space, Tag } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";

/**
 * A feedback item opened by staff: opening it is what reads it (to be read → read, on the server),
 * with the user's words, contact, state, assignee and the replies so far.
 */
export function FeedbackDialog({ item, onClose }: { item: FeedbackRecord; onClose: () => void }) {
  const { t } = useTranslation(["feedback", "fields"]);
  const queryClient = useQueryClient();
  const open = useMutation({
    mutationFn: () => call(API.feedback.open, { body: { id: item.id } }),
    onSuccess: () => void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") }),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per dialog
  useEffect(() => {
    open.mutate();
  }, []);
  const shown = open.data ?? item;
  return (
    <Modal
      open
      footer={null}
      onCancel={onClose}
      width={720}
      title={t("feedback:details", { id: item.id })}
      data-testid="feedback-details"
    >
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t("feedback:columns.username")}>{shown.username}</Descriptions.Item>
        <Descriptions.Item label={t("feedback:columns.type")}>{t(`feedback:types.${shown.type}`)}</Descriptions.Item>
        <Descriptions.Item label={t("feedback:columns.content")}>{shown.content}</Descriptions.Item>
        <Descriptions.Item label={t("feedback:columns.contact")}>{shown.contact}</Descriptions.Item>
        {shown.pictureUrls.length > 0 && (
          <Descriptions.Item label={t("fields:pictures")}>
            <Image.PreviewGroup>
              <Space wrap data-testid="feedback-pictures">
                {shown.pictureUrls.map((url) => (
                  <Image key={url} src={url} width={96} />
                ))}
              </Space>
            </Image.PreviewGroup>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t("feedback:columns.state")}>
          <Tag data-testid="feedback-details-state">{t(`feedback:states.${shown.state}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("feedback:columns.assignee")}>{shown.assignee ?? ""}</Descriptions.Item>
        <Descriptions.Item label={t("feedback:columns.createTime")}>{formatDateTime(shown.createTime)}</Descriptions.Item>
      </Descriptions>
      <List
        data-testid="feedback-replies"
        header={t("feedback:columns.replies")}
        dataSource={shown.replies}
        locale={{ emptyText: <Empty description={t("feedback:noReplies")} /> }}
        renderItem={(r) => (
          <List.Item key={r.id}>
            <List.Item.Meta title={`${r.author} · ${formatDateTime(r.createTime)}`} description={r.content} />
          </List.Item>
        )}
      />
    </Modal>
  );
}
