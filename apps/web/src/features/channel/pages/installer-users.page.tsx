import { CrudPage } from "../../../ui/crud/index.ts";
import { userScreen } from "../../admin/config/users.crud.tsx";

const config = userScreen("installer-users", 1);

/** Channel → Installer users: the accounts of distributors', dealers' and installers' staff. */
export default function InstallerUsersPage() {
  return <CrudPage config={config} />;
}
