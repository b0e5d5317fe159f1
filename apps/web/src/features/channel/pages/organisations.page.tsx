import { CrudPage } from "../../../ui/crud/index.ts";
import { organisationsCrud } from "../config/organisations.crud.tsx";

export default function OrganisationsPage() {
  return <CrudPage config={organisationsCrud} />;
}
