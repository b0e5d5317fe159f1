import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { connectDeviceWrites } from "./writes-socket.ts";

/** The settings page `page` as the device answers it now. */
export function useSettingsPage(deviceId: number, page: number | null) {
  return useQuery({
    queryKey: ["device-settings-page", deviceId, page],
    queryFn: () => call(API.deviceTelemetry.pageRead, { query: { deviceId, val: page as number } }),
    enabled: page !== null,
    retry: false,
  });
}

/** What the caller may view and set of a page's registers (the display configuration). */
export function useMyRights(page: number | null) {
  return useQuery({
    queryKey: ["register-rights", page],
    queryFn: () => call(API.registerVisibility.mine, { query: { page: page as number } }),
    enabled: page !== null,
    staleTime: 60_000,
  });
}

/**
 * The device's change records, kept current by the gateway's pushes (each state change as it
 * happens: a queued change turns acknowledged when the device returns); a new record pushed
 * before it is listed reloads the list.
 */
export function useWriteRecords(deviceId: number) {
  const client = useQueryClient();
  const key = ["device-write-records", deviceId];
  const query = useQuery({
    queryKey: key,
    queryFn: () => call(API.deviceSettings.records, { query: { deviceId, size: 20 } }),
    refetchInterval: 60_000,
  });
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void connectDeviceWrites(deviceId, (message) => {
      type Page = NonNullable<typeof query.data>;
      const page = client.getQueryData<Page>(["device-write-records", deviceId]);
      if (!page?.records.some((r) => r.id === message.id)) {
        void client.invalidateQueries({ queryKey: ["device-write-records", deviceId] });
        return;
      }
      client.setQueryData<Page>(["device-write-records", deviceId], {
        ...page,
        records: page.records.map((r) =>
          r.id === message.id
            ? {
                ...r,
                state: message.state,
                refusal: message.refusal,
                sentAt: message.sentAt,
                finishedAt: message.finishedAt,
                attempts: message.attempts,
              }
            : r,
        ),
      });
      // The refusal's text is translated by the server: fetch it once the record has ended refused.
      if (message.state === "refused" || message.state === "timed_out")
        void client.invalidateQueries({ queryKey: ["device-write-records", deviceId] });
    }).then((s) => {
      if (cancelled) s();
      else stop = s;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [deviceId, client]);
  return query;
}

export function useWriteSettings(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { values: Record<string, number | string>; queueIfOffline: boolean }) =>
      call(API.deviceSettings.write, { body: { deviceId, ...input } }),
    onSettled: () => client.invalidateQueries({ queryKey: ["device-write-records", deviceId] }),
  });
}

export function useSendCommand(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { command: number; queueIfOffline: boolean }) =>
      call(API.deviceSettings.command, { body: { deviceId, ...input } }),
    onSettled: () => client.invalidateQueries({ queryKey: ["device-write-records", deviceId] }),
  });
}
