import { useParams } from "react-router";
import { DeviceSettingsPanel } from "../components/device-settings-panel.tsx";

/** The settings panel on a route of its own (`/device/settings/:deviceId`). */
export default function DeviceSettingsPage() {
  const deviceId = Number(useParams().deviceId);
  return (
    <main style={{ padding: 24 }}>
      <DeviceSettingsPanel deviceId={deviceId} />
    </main>
  );
}
