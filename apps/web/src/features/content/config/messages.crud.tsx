import { type MessageRecord, messageInput, messagePublish } from "@ess/contracts";
import { MESSAGE_AUDIENCES, MESSAGE_STATE_VALUES, MESSAGE_STATES, MESSAGE_TERMINALS } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { ImageUploadInput } from "../../../ui/image-upload-input.tsx";
import { RichTextInput } from "../../../ui/rich-text-input.tsx";
import { DateTimeInput } from "../components/date-time-input.tsx";
import { audienceOrgOptions, audienceUserOptions } from "../options.ts";

const stateOptions = { values: MESSAGE_STATE_VALUES, labelKey: "messages:states" };
const terminalOptions = { values: MESSAGE_TERMINALS, labelKey: "messages:terminals" };
const audienceOptions = { values: MESSAGE_AUDIENCES, labelKey: "messages:audiences" };
const editable = (m: MessageRecord) => m.state === MESSAGE_STATES.draft || m.state === MESSAGE_STATES.scheduled;

const fields: FieldDef[] = [
  { name: "title", required: true },
  { name: "summary", required: true },
  // Rich text, sanitised by the server's allow-list when saved.
  { name: "content", label: "fields:messageContent", required: true, input: (props) => <RichTextInput {...props} /> },
  { name: "description", kind: "textarea" },
  { name: "cover", input: (props) => <ImageUploadInput {...props} own /> },
  { name: "terminal", kind: "select", options: terminalOptions, required: true },
  { name: "audience", kind: "select", options: audienceOptions, required: true },
  { name: "orgId", kind: "select", options: audienceOrgOptions, visible: (v) => v.audience === "organisation" },
  { name: "userIds", kind: "multiSelect", options: audienceUserOptions, visible: (v) => v.audience === "users" },
];

/** Messages (spec §2 messages, §3 Message): written, published at once or scheduled, recalled. */
export const messagesCrud = defineCrud<MessageRecord>({
  id: "messages",
  ns: ["messages", "channel"],
  list: API.message.page,
  filters: [
    { name: "title" },
    { name: "state", label: "fields:messageState", kind: "select", options: stateOptions },
    { name: "terminal", kind: "select", options: terminalOptions },
  ],
  columns: [
    { key: "title" },
    { key: "summary", ellipsis: true, width: 200 },
    { key: "terminal", options: terminalOptions },
    { key: "audience", options: audienceOptions },
    { key: "orgName", title: "messages:columns.orgName" },
    { key: "state", title: "fields:messageState", options: stateOptions, sortable: true },
    { key: "publishAt", title: "messages:columns.publishAt", kind: "time", sortable: true },
    { key: "sender", title: "messages:columns.sender" },
    { key: "recipients", title: "messages:columns.recipients" },
    { key: "readCount", title: "messages:columns.readCount" },
    { key: "createTime", kind: "time", sortable: true },
  ],
  create: {
    title: "messages:create",
    route: API.message.save,
    schema: messageInput,
    permission: "content.message.edit",
    initial: () => ({ terminal: "app", audience: "everyone", userIds: [] }),
    fields,
  },
  edit: {
    title: "messages:edit",
    route: API.message.edit,
    schema: messageInput,
    permission: "content.message.edit",
    visible: editable,
    fields,
  },
  remove: {
    route: API.message.del,
    permission: "content.message.edit",
    confirm: "messages:confirmDelete",
    visible: (m) => m.state === MESSAGE_STATES.draft || m.state === MESSAGE_STATES.recalled,
  },
  actions: [
    {
      key: "publish",
      label: "messages:publish",
      permission: "content.message.edit",
      visible: editable,
      form: {
        title: "messages:publishTitle",
        route: API.message.publish,
        schema: messagePublish,
        permission: "content.message.edit",
        intro: "messages:publishHelp",
        confirm: "messages:confirmPublish",
        initial: (m) => ({ publishAt: m?.publishAt ?? null }),
        toBody: (v, m) => ({ id: m?.id, publishAt: v.publishAt ?? null }),
        fields: [{ name: "publishAt", input: (props) => <DateTimeInput {...props} /> }],
      },
    },
    {
      key: "recall",
      label: "messages:recall",
      permission: "content.message.edit",
      danger: true,
      confirm: "messages:confirmRecall",
      visible: (m) => m.state === MESSAGE_STATES.published || m.state === MESSAGE_STATES.scheduled,
      run: (m) => call(API.message.recall, { body: { id: m.id } }),
    },
  ],
});
