import { CrudPage } from "../../../ui/crud/index.ts";
import { faqClassesCrud } from "../config/faq-classes.crud.tsx";

/** FAQ classifications (`/content/faq-class`). */
export default function FaqClassesPage() {
  return <CrudPage config={faqClassesCrud} />;
}
