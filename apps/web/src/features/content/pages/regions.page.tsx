import { CrudPage } from "../../../ui/crud/index.ts";
import { regionsCrud } from "../config/regions.crud.tsx";

/** Address management (`/content/region`). */
export default function RegionsPage() {
  return <CrudPage config={regionsCrud} />;
}
