import { CrudPage } from "../../../ui/crud/index.ts";
import { referralsCrud } from "../config/referrals.crud.tsx";

/** The referral-code customer list (`/aus/referral`). */
export default function ReferralsPage() {
  return <CrudPage config={referralsCrud} />;
}
