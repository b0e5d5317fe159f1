import { CrudPage } from "../../../ui/crud/index.ts";
import { faqProblemsCrud } from "../config/faq-problems.crud.tsx";

/** FAQ problems (`/content/faq`). */
export default function FaqProblemsPage() {
  return <CrudPage config={faqProblemsCrud} />;
}
