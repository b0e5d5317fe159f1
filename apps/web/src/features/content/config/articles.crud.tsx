import type { ArticleSummary } from "@ess/contracts";
import { Image } from "antd";
import { API } from "../../../api/api.ts";
import { defineCrud } from "../../../ui/crud/index.ts";
import { ArticleEditPanel } from "../components/article-edit-panel.tsx";
import { articleForm, languageOptions, stateOptions, terminalOptions, typeOptions } from "./article-form.tsx";

/** Data center (spec §2): news and documents of types 1–6, one language each, published or draft. */
export const articlesCrud = defineCrud<ArticleSummary>({
  id: "articles",
  ns: ["content", "common"],
  list: API.article.page,
  filters: [
    { name: "title", label: "content:fields.title" },
    { name: "type", label: "content:fields.type", kind: "select", options: typeOptions },
    { name: "state", label: "content:fields.state", kind: "select", options: stateOptions },
    { name: "language", label: "content:fields.language", kind: "select", options: languageOptions },
  ],
  columns: [
    {
      key: "cover",
      title: "content:fields.cover",
      width: 96,
      render: (a) =>
        a.cover ? <Image src={a.cover.thumbnailUrl ?? a.cover.url} preview={{ src: a.cover.url }} width={64} /> : null,
    },
    { key: "title", title: "content:fields.title", ellipsis: true },
    { key: "type", title: "content:fields.type", options: typeOptions },
    { key: "language", title: "content:fields.language", options: languageOptions },
    { key: "terminal", title: "content:fields.terminal", options: terminalOptions },
    { key: "state", title: "content:fields.state", options: stateOptions },
    { key: "sort", title: "content:fields.sort", sortable: true },
    { key: "publishTime", title: "content:fields.publishTime", kind: "time", sortable: true },
    { key: "updateTime", title: "content:fields.updateTime", kind: "time", sortable: true },
  ],
  create: articleForm(undefined),
  actions: [
    {
      key: "edit",
      label: "crud:edit",
      permission: "content.article.edit",
      panel: (record, close) => <ArticleEditPanel id={record.id} close={close} />,
    },
  ],
  remove: { route: API.article.del, permission: "content.article.edit", confirm: "content:confirmDelete" },
});
