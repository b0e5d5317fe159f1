import { CrudPage } from "../../../ui/crud/index.ts";
import { alarmsCrud } from "../config/alarms.crud.tsx";

const config = alarmsCrud(true);

export default function AlarmHistoryPage() {
  return <CrudPage config={config} />;
}
