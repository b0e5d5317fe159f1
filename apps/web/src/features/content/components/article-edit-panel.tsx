import type { ArticleSummary } from "@ess/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Modal, Spin } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { FormDialog } from "../../../ui/crud/index.ts";
import { articleForm } from "../config/article-form.tsx";

/**
 * Editing an article: its content and attachments are not in the list's rows, so the article is
 * read in full first and then shown in the same form as a new one.
 */
export function ArticleEditPanel({ id, close }: { id: number; close: () => void }) {
  const queryClient = useQueryClient();
  const article = useQuery({
    queryKey: ["crud-article", id],
    queryFn: () => call(API.article.info, { query: { id } }),
    gcTime: 0,
  });
  if (!article.data)
    return (
      <Modal open footer={null} onCancel={close} data-testid="articles-edit-loading">
        <Spin />
      </Modal>
    );
  const record = article.data;
  const summary: ArticleSummary = record;
  return (
    <FormDialog<ArticleSummary>
      spec={articleForm(record)}
      record={summary}
      testId="articles-edit-dialog"
      onClose={close}
      onDone={() => {
        close();
        void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") });
      }}
    />
  );
}
