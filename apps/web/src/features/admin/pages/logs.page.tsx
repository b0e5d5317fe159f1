import { CrudPage } from "../../../ui/crud/index.ts";
import { logsCrud } from "../config/logs.crud.tsx";

export default function LogsPage() {
  return <CrudPage config={logsCrud} />;
}
