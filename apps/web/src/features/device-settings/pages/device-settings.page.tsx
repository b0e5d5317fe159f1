import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { useTabSubject } from "../../../app/layout/use-tab-label.ts";
import { DeviceSettingsPanel } from "../components/device-settings-panel.tsx";

/** The settings panel on a route of its own (`/device/settings/:deviceId`), its tab named by the device. */
export default function DeviceSettingsPage() {
  const deviceId = Number(useParams().deviceId);
  // The reading the panel loads as well (one request for both).
  const device = useQuery({
    queryKey: ["device-live", deviceId],
    queryFn: () => call(API.deviceTelemetry.latest, { query: { deviceId, values: "0" } }),
    enabled: Number.isInteger(deviceId) && deviceId > 0,
  });
  useTabSubject(device.data ? device.data.name || device.data.sn : null);
  return (
    <main style={{ padding: 24 }}>
      <DeviceSettingsPanel deviceId={deviceId} />
    </main>
  );
}
