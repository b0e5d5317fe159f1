import { CrudPage } from "../../../ui/crud/index.ts";
import { campaignsCrud } from "../config/campaigns.crud.tsx";

export default function CampaignsPage() {
  return <CrudPage config={campaignsCrud} />;
}
