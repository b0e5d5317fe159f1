import { CrudPage } from "../../../ui/crud/index.ts";
import { cancellationsCrud } from "../config/cancellations.crud.tsx";

export default function CancellationsPage() {
  return <CrudPage config={cancellationsCrud} />;
}
