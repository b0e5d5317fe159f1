import { useQuery } from "@tanstack/react-query";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";

/** One device's registration, owner, installer and binding times. */
export function useDevice(deviceId: number) {
  return useQuery({
    queryKey: ["device-info", deviceId],
    queryFn: () => call(API.device.info, { query: { id: deviceId } }),
    enabled: Number.isInteger(deviceId) && deviceId > 0,
  });
}

/** The newest reading with every register value the caller's audience may view. */
export function useDeviceValues(deviceId: number) {
  return useQuery({
    queryKey: ["device-values", deviceId],
    queryFn: () => call(API.deviceTelemetry.latest, { query: { deviceId, values: "1" } }),
    refetchInterval: 60_000,
  });
}
