import { CrudPage } from "../../../ui/crud/index.ts";
import { endUsersCrud } from "../config/end-users.crud.tsx";

export default function EndUsersPage() {
  return <CrudPage config={endUsersCrud} />;
}
