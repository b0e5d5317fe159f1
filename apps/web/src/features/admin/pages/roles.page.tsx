import { CrudPage } from "../../../ui/crud/index.ts";
import { rolesCrud } from "../config/roles.crud.tsx";

export default function RolesPage() {
  return <CrudPage config={rolesCrud} />;
}
