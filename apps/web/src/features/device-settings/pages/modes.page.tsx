import { CrudPage } from "../../../ui/crud/index.ts";
import { modesCrud } from "../config/modes.crud.tsx";

/** Mode management (`/device/modes`). */
export default function ModesPage() {
  return <CrudPage config={modesCrud} />;
}
