import { CrudPage } from "../../../ui/crud/index.ts";
import { articlesCrud } from "../config/articles.crud.tsx";

export default function ArticlesPage() {
  return <CrudPage config={articlesCrud} />;
}
