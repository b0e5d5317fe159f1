import type { InboxItem } from "@ess/contracts";
import { Tag } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud } from "../../../ui/crud/index.ts";
import { InboxToolbar } from "../components/inbox-toolbar.tsx";

/** The signed-in console user's own messages (those for the web), unread first to the eye. */
export const inboxCrud = defineCrud<InboxItem>({
  id: "inbox",
  ns: ["messages"],
  list: API.inbox.page,
  filters: [{ name: "unreadOnly", kind: "switch" }],
  columns: [
    {
      key: "read",
      title: "fields:messageState",
      render: (m, t) => (m.read ? <Tag>{t("messages:inbox.read")}</Tag> : <Tag color="blue">{t("messages:inbox.unread")}</Tag>),
    },
    { key: "title" },
    { key: "summary", ellipsis: true, width: 260 },
    { key: "publishedAt", title: "messages:columns.publishAt", kind: "time" },
  ],
  expand: (m) => <div style={{ whiteSpace: "pre-wrap" }}>{m.content}</div>,
  actions: [
    {
      key: "markRead",
      label: "messages:inbox.markRead",
      visible: (m) => !m.read,
      run: (m) => call(API.inbox.read, { body: { id: m.id } }),
    },
  ],
  toolbar: () => <InboxToolbar />,
});
