import { type BannerRecord, bannerInput } from "@ess/contracts";
import { BANNER_KINDS } from "@ess/domain";
import { useQueryClient } from "@tanstack/react-query";
import { Image, Typography } from "antd";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef, FormDialog, type FormSpec } from "../../../ui/crud/index.ts";
import { ImageUploadInput } from "../../../ui/image-upload-input.tsx";
import { languageOptions, stateOptions, terminalOptions } from "./article-form.tsx";

const kindOptions = { values: BANNER_KINDS, labelKey: "content:bannerKind" };

const fields = (record: BannerRecord | undefined): FieldDef[] => [
  { name: "kind", label: "fields:bannerKind", kind: "select", options: kindOptions, required: true },
  { name: "title", label: "content:fields.title", required: true },
  { name: "language", label: "content:fields.language", kind: "select", options: languageOptions, required: true },
  { name: "terminal", label: "content:fields.terminal", kind: "select", options: terminalOptions },
  { name: "state", label: "content:fields.state", kind: "select", options: stateOptions },
  { name: "sort", label: "content:fields.sort", kind: "number" },
  { name: "link", label: "content:fields.link" },
  {
    name: "imageId",
    label: "fields:bannerImage",
    required: true,
    input: (props) => <ImageUploadInput {...props} initial={record?.image ?? null} />,
  },
];

const form = (record: BannerRecord | undefined): FormSpec<BannerRecord> => ({
  title: record ? "content:banner.edit" : "content:banner.add",
  route: record ? API.banner.edit : API.banner.save,
  schema: bannerInput,
  permission: "content.banner.edit",
  fields: fields(record),
  initial: (r) =>
    r
      ? {
          kind: r.kind,
          title: r.title,
          language: r.language,
          terminal: r.terminal,
          state: r.state,
          sort: r.sort,
          link: r.link ?? undefined,
          imageId: r.image.id,
        }
      : { kind: 1, terminal: 2, state: 0, sort: 0 },
});

function BannerEdit({ record, close }: { record: BannerRecord; close: () => void }) {
  const queryClient = useQueryClient();
  return (
    <FormDialog<BannerRecord>
      spec={form(record)}
      record={record}
      testId="banners-edit-dialog"
      onClose={close}
      onDone={() => {
        close();
        void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") });
      }}
    />
  );
}

/** Banners of the app's home and guide pages of its first start: a picture, a link, one language. */
export const bannersCrud = defineCrud<BannerRecord>({
  id: "banners",
  ns: ["content", "common"],
  list: API.banner.page,
  filters: [
    { name: "kind", label: "fields:bannerKind", kind: "select", options: kindOptions },
    { name: "title", label: "content:fields.title" },
    { name: "state", label: "content:fields.state", kind: "select", options: stateOptions },
    { name: "language", label: "content:fields.language", kind: "select", options: languageOptions },
  ],
  columns: [
    {
      key: "image",
      title: "fields:bannerImage",
      width: 120,
      render: (b) => <Image src={b.image.thumbnailUrl ?? b.image.url} preview={{ src: b.image.url }} width={96} />,
    },
    { key: "kind", title: "fields:bannerKind", options: kindOptions },
    { key: "title", title: "content:fields.title", ellipsis: true },
    { key: "language", title: "content:fields.language", options: languageOptions },
    { key: "terminal", title: "content:fields.terminal", options: terminalOptions },
    { key: "state", title: "content:fields.state", options: stateOptions },
    { key: "sort", title: "content:fields.sort", sortable: true },
    {
      key: "link",
      title: "content:fields.link",
      ellipsis: true,
      render: (b) =>
        b.link ? (
          <Typography.Link href={b.link} target="_blank" rel="noopener noreferrer">
            {b.link}
          </Typography.Link>
        ) : null,
    },
    { key: "updateTime", title: "content:fields.updateTime", kind: "time", sortable: true },
  ],
  create: form(undefined),
  // The row holds everything the form needs; the form is made for the row, so its picture shows.
  actions: [
    {
      key: "edit",
      label: "crud:edit",
      permission: "content.banner.edit",
      panel: (record, close) => <BannerEdit record={record} close={close} />,
    },
  ],
  remove: { route: API.banner.del, permission: "content.banner.edit", confirm: "content:banner.confirmDelete" },
});
