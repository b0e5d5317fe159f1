import { CrudPage } from "../../../ui/crud/index.ts";
import { alarmControlCrud } from "../config/alarm-control.crud.tsx";

export default function AlarmControlPage() {
  return <CrudPage config={alarmControlCrud} />;
}
