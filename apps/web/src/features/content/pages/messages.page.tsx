import { CrudPage } from "../../../ui/crud/index.ts";
import { messagesCrud } from "../config/messages.crud.tsx";

/** Messages (`/content/message`). */
export default function MessagesPage() {
  return <CrudPage config={messagesCrud} />;
}
