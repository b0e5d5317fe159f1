import { type ArticleRecord, type ArticleSummary, articleInput } from "@ess/contracts";
import { CONTENT_STATES, CONTENT_TERMINALS, DOCUMENT_TYPES, LOCALES } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { AttachmentListInput } from "../../../ui/attachment-list-input.tsx";
import type { FieldDef, FormSpec, Values } from "../../../ui/crud/index.ts";
import { ImageUploadInput } from "../../../ui/image-upload-input.tsx";
import { InstantInput } from "../../../ui/instant-input.tsx";
import { RichTextInput } from "../../../ui/rich-text-input.tsx";

export const typeOptions = { values: DOCUMENT_TYPES, labelKey: "content:documentType" };
export const terminalOptions = { values: CONTENT_TERMINALS, labelKey: "content:terminalName" };
export const stateOptions = { values: CONTENT_STATES, labelKey: "content:stateName" };
export const languageOptions = { values: LOCALES, labelKey: "common:languages" };

const fields = (record: ArticleRecord | undefined): FieldDef[] => [
  { name: "title", label: "content:fields.title", required: true },
  { name: "type", label: "content:fields.type", kind: "select", options: typeOptions, required: true },
  { name: "language", label: "content:fields.language", kind: "select", options: languageOptions, required: true },
  { name: "terminal", label: "content:fields.terminal", kind: "select", options: terminalOptions },
  { name: "state", label: "content:fields.state", kind: "select", options: stateOptions },
  { name: "sort", label: "content:fields.sort", kind: "number" },
  {
    name: "publishTime",
    label: "content:fields.publishTime",
    help: "content:publishTimeHelp",
    input: (props) => <InstantInput {...props} />,
  },
  { name: "sketch", label: "content:fields.sketch", kind: "textarea" },
  {
    name: "coverId",
    label: "content:fields.cover",
    input: (props) => <ImageUploadInput {...props} initial={record?.cover ?? null} />,
  },
  { name: "content", label: "content:fields.content", required: true, input: (props) => <RichTextInput {...props} /> },
  { name: "attachments", label: "content:fields.attachments", input: (props) => <AttachmentListInput {...props} /> },
];

/** Attachments as the form holds them → the body's (a link without a file, a file without a link). */
const toBody = (values: Values, record: ArticleSummary | undefined) => {
  const attachments = Array.isArray(values.attachments)
    ? (values.attachments as { name: string; mediaId?: number | null; url?: string | null }[]).map((a) =>
        a.mediaId ? { name: a.name, mediaId: a.mediaId } : { name: a.name, url: a.url ?? "" },
      )
    : [];
  return { ...values, coverId: values.coverId ?? null, attachments, ...(record ? { id: record.id } : {}) };
};

/** The article form: a new one (no record), or one read in full for editing. */
export const articleForm = (record: ArticleRecord | undefined): FormSpec<ArticleSummary> => ({
  title: record ? "content:edit" : "content:add",
  route: record ? API.article.edit : API.article.save,
  schema: articleInput,
  permission: "content.article.edit",
  fields: fields(record),
  initial: () =>
    record
      ? {
          title: record.title,
          type: record.type,
          language: record.language,
          terminal: record.terminal,
          state: record.state,
          sort: record.sort,
          publishTime: record.publishTime ?? undefined,
          sketch: record.sketch,
          coverId: record.cover?.id,
          content: record.content,
          attachments: record.attachments.map((a) =>
            a.mediaId ? { name: a.name, mediaId: a.mediaId } : { name: a.name, url: a.url },
          ),
        }
      : { type: 1, terminal: 2, state: 0, sort: 0, attachments: [] },
  toBody,
});
