import { API, type DeviceLive } from "@ess/contracts";
import { audienceOfUserType } from "@ess/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { call } from "../../../api/client.ts";
import { useSession } from "../../../app/session.ts";
import { connectDeviceLive } from "./live-socket.ts";

/**
 * The device's online status and newest reading: loaded over HTTP, then kept current by the
 * gateway's pushes (each reading and status change as it happens); a slow refresh keeps the
 * last-seen time and covers a lost connection.
 */
export function useDeviceLive(deviceId: number, refreshMs = 30_000) {
  const queryClient = useQueryClient();
  const userType = useSession()?.userInfo?.user.userType ?? 0;
  const valid = Number.isInteger(deviceId) && deviceId > 0;
  const query = useQuery({
    queryKey: ["device-live", deviceId],
    queryFn: () => call(API.deviceTelemetry.latest, { query: { deviceId, values: "0" } }),
    refetchInterval: refreshMs,
    enabled: valid,
  });
  const loaded = query.isSuccess;

  useEffect(() => {
    if (!valid || !loaded) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void connectDeviceLive(deviceId, audienceOfUserType(userType), (message) => {
      queryClient.setQueryData<DeviceLive>(["device-live", deviceId], (old) => {
        if (!old) return old;
        const next = { ...old };
        if (message.onlineStatus !== undefined) next.onlineStatus = message.onlineStatus;
        if (message.reading && (!old.latest || message.reading.ts > old.latest.ts)) {
          next.latest = { ...message.reading, invalid: [] };
          next.lastSeenAt = message.reading.receivedAt;
        }
        return next;
      });
    }).then((s) => {
      if (cancelled) s();
      else stop = s;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [deviceId, valid, loaded, userType, queryClient]);

  return query;
}

/** Asks the device for one live page (the device answers, or the server says why it cannot). */
export function usePageRead(deviceId: number) {
  return useMutation({
    mutationFn: (page: number) => call(API.deviceTelemetry.pageRead, { query: { deviceId, val: page } }),
  });
}
