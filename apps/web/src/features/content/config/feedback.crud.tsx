import { type FeedbackRecord, feedbackHandle } from "@ess/contracts";
import { FEEDBACK_STATE_VALUES, FEEDBACK_STATES, FEEDBACK_TYPES } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";
import { FeedbackDialog } from "../components/feedback-dialog.tsx";
import { staffOptions } from "../options.ts";

const stateOptions = { values: FEEDBACK_STATE_VALUES, labelKey: "feedback:states" };
const typeOptions = { values: FEEDBACK_TYPES, labelKey: "feedback:types" };

/** Feedback (spec §2 opinions, §4 type and state): read, moved forward, assigned, answered, exported. */
export const feedbackCrud = defineCrud<FeedbackRecord>({
  id: "feedback",
  ns: ["feedback"],
  list: API.feedback.page,
  filters: [
    { name: "state", label: "fields:feedbackState", kind: "select", options: stateOptions },
    { name: "type", label: "fields:feedbackType", kind: "select", options: typeOptions },
    { name: "username" },
    { name: "time", kind: "dateRange", range: ["beginTime", "endTime"], label: "feedback:columns.createTime" },
  ],
  columns: [
    { key: "id", title: "feedback:columns.id", sortable: true },
    { key: "username", title: "feedback:columns.username" },
    { key: "type", title: "feedback:columns.type", options: typeOptions, sortable: true },
    { key: "content", title: "feedback:columns.content", ellipsis: true, width: 240 },
    { key: "contact", title: "feedback:columns.contact" },
    { key: "state", title: "feedback:columns.state", options: stateOptions, sortable: true },
    { key: "assignee", title: "feedback:columns.assignee" },
    { key: "createTime", title: "feedback:columns.createTime", kind: "time", sortable: true },
    { key: "handledTime", title: "feedback:columns.handledTime", kind: "time" },
  ],
  actions: [
    { key: "open", label: "feedback:open", panel: (item, close) => <FeedbackDialog item={item} onClose={close} /> },
    {
      key: "handle",
      label: "feedback:handle",
      permission: "feedback.handle",
      visible: (f) => f.state !== FEEDBACK_STATES.handled,
      form: {
        title: "feedback:handleTitle",
        intro: "feedback:handleIntro",
        route: API.feedback.handle,
        schema: feedbackHandle,
        permission: "feedback.handle",
        initial: (f) => ({ state: Math.max(f?.state ?? 1, 1), assigneeId: f?.assigneeId ?? null, reply: "" }),
        fields: [
          {
            name: "state",
            label: "fields:feedbackState",
            kind: "select",
            options: { values: [1, 2, 3], labelKey: "feedback:states" },
            required: true,
          },
          { name: "assigneeId", kind: "select", options: staffOptions },
          { name: "reply", kind: "textarea", help: "feedback:replyHelp" },
        ],
      },
    },
  ],
  export: { route: API.feedback.export, permission: "feedback.export", fileName: "feedback.xlsx" },
});
