import { CrudPage } from "../../../ui/crud/index.ts";
import { alarmsCrud } from "../config/alarms.crud.tsx";

const config = alarmsCrud(false);

export default function CurrentAlarmsPage() {
  return <CrudPage config={config} />;
}
