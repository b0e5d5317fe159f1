import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge, Button, Space } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";

/** The unread count of the caller's console messages and "mark all read". */
export function InboxToolbar() {
  const { t } = useTranslation("messages");
  const queryClient = useQueryClient();
  const unread = useQuery({
    queryKey: ["crud-inbox-unread"],
    queryFn: async () => (await call(API.inbox.page, { query: { size: 1 } } as never)).unread,
  });
  const readAll = useMutation({
    mutationFn: () => call(API.inbox.read, { body: { all: true } }),
    onSuccess: () => void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") }),
  });
  return (
    <Space>
      <Badge count={unread.data ?? 0} showZero data-testid="inbox-unread">
        <span>{t("inbox.unreadCount", { count: unread.data ?? 0 })}</span>
      </Badge>
      <Button data-testid="inbox-read-all" disabled={!unread.data} loading={readAll.isPending} onClick={() => readAll.mutate()}>
        {t("inbox.markAllRead")}
      </Button>
    </Space>
  );
}
