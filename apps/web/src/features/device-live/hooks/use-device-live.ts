import { API } from "@ess/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { call } from "../../../api/client.ts";

/**
 * The device's online status and newest reading, refreshed every few seconds. Polled over HTTP:
 * the STOMP gateway (/act/ws) is not part of the console yet; when it is, a subscription to the
 * device's topic replaces the interval.
 */
export function useDeviceLive(deviceId: number, refreshMs = 3000) {
  return useQuery({
    queryKey: ["device-live", deviceId],
    queryFn: () => call(API.deviceTelemetry.latest, { query: { deviceId, values: "0" } }),
    refetchInterval: refreshMs,
    enabled: Number.isInteger(deviceId) && deviceId > 0,
  });
}

/** Asks the device for one live page (the device answers, or the server says why it cannot). */
export function usePageRead(deviceId: number) {
  return useMutation({
    mutationFn: (page: number) => call(API.deviceTelemetry.pageRead, { query: { deviceId, val: page } }),
  });
}
