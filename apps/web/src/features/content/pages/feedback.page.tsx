import { CrudPage } from "../../../ui/crud/index.ts";
import { feedbackCrud } from "../config/feedback.crud.tsx";

/** Feedback (`/content/feedback`). */
export default function FeedbackPage() {
  return <CrudPage config={feedbackCrud} />;
}
