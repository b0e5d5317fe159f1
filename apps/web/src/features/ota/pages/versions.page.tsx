import { CrudPage } from "../../../ui/crud/index.ts";
import { versionsCrud } from "../config/versions.crud.tsx";

export default function VersionsPage() {
  return <CrudPage config={versionsCrud} />;
}
