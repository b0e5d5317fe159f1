import { CrudPage } from "../../../ui/crud/index.ts";
import { bannersCrud } from "../config/banners.crud.tsx";

export default function BannersPage() {
  return <CrudPage config={bannersCrud} />;
}
