import { CrudPage } from "../../../ui/crud/index.ts";
import { menusCrud } from "../config/menus.crud.tsx";

export default function MenusPage() {
  return <CrudPage config={menusCrud} />;
}
