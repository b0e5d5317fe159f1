import { CrudPage } from "../../../ui/crud/index.ts";
import { inboxCrud } from "../config/inbox.crud.tsx";

/** The console user's own messages (`/inbox`). */
export default function InboxPage() {
  return <CrudPage config={inboxCrud} />;
}
