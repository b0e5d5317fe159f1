import { CrudPage } from "../../../ui/crud/index.ts";
import { userScreen } from "../config/users.crud.tsx";

const config = userScreen("users");

/** System → Users: every account the caller may see. */
export default function UsersPage() {
  return <CrudPage config={config} />;
}
