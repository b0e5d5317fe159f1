import { getRegister } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import { type DeviceRequests, DeviceTimeoutError } from "../telemetry/device-requests.ts";
import { knownSettings, rememberSettings } from "./write-records.repository.ts";

/**
 * A device's current settings: the pages holding `keys` read afresh when it is online (and kept),
 * else what it last reported. Changes are checked against them and their old values recorded.
 */
export async function currentSettings(
  deps: { db: Db; requests: DeviceRequests | null },
  device: { id: number; sn: string; onlineStatus: number },
  keys: readonly string[],
): Promise<Record<string, number | string>> {
  const pages = new Set(keys.map((k) => getRegister(k)?.page).filter((p): p is number => typeof p === "number"));
  if (deps.requests && device.onlineStatus !== 0) {
    for (const page of pages) {
      try {
        const answer = await deps.requests.readPage(device.sn, page);
        const settable = Object.fromEntries(
          Object.entries(answer.values).filter(([id]) => getRegister(id)?.access === "readWrite"),
        );
        await rememberSettings(deps.db, device.id, settable);
      } catch (error) {
        // A silent device: what it last reported; the write itself will time out.
        if (!(error instanceof DeviceTimeoutError)) throw error;
      }
    }
  }
  return knownSettings(deps.db, device.id);
}
