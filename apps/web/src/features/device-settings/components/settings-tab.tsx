import type { DeviceTabProps } from "../../devices/details/tab-registry.ts";
import { DeviceSettingsPanel } from "./device-settings-panel.tsx";

/** The settings panel as a tab of the device details page. */
export default function SettingsTab({ device }: DeviceTabProps) {
  return <DeviceSettingsPanel deviceId={device.id} />;
}
