import { getRegister, IDENTITY_SETTINGS } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import { rememberSettings } from "../settings/write-records.repository.ts";
import { type DeviceRequests, DeviceTimeoutError } from "./device-requests.ts";
import type { Log } from "./log.ts";

/** The settings page that holds each product's battery chemistry (three-phase 48, single-phase 8). */
const CHEMISTRY_PAGE = {
  2: getRegister(IDENTITY_SETTINGS.batteryChemistry[0])?.page ?? null,
  1: getRegister(IDENTITY_SETTINGS.batteryChemistry[1])?.page ?? null,
} as const;

/** Devices asked per round, and at once. */
const PER_ROUND = 20;
const AT_ONCE = 4;
/** A device that did not answer is asked again after this. */
const RETRY_AFTER = "1 hour";

/**
 * Learns what a device says of itself only in its settings — its battery chemistry — for online
 * devices whose record lacks it: every `everyMs` it claims a few of them (any process, once an
 * hour per device: `identity_read_at`, rows skipped while another process claims them), reads the
 * settings page that holds it, and keeps the answer as a user's page read would (the device's
 * settings, and its identity through them). Readings carry model, rated power and country; this
 * is the rest.
 */
export function createIdentityReader(deps: { db: Db; requests: DeviceRequests; log: Log; everyMs: number }) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  async function readOne(device: { id: number; sn: string; phase_type: 1 | 2 }) {
    const page = CHEMISTRY_PAGE[device.phase_type];
    if (page === null) return;
    try {
      const answer = await deps.requests.readPage(device.sn, page);
      await rememberSettings(
        deps.db,
        device.id,
        Object.fromEntries(Object.entries(answer.values).filter(([id]) => getRegister(id)?.access === "readWrite")),
      );
    } catch (error) {
      if (!(error instanceof DeviceTimeoutError)) throw error;
    }
  }

  async function round() {
    const { rows } = await deps.db.query<{ id: number; sn: string; phase_type: 1 | 2 }>(
      `UPDATE device d SET identity_read_at = now()
        WHERE d.id IN (SELECT id FROM device
                        WHERE deleted_at IS NULL AND battery_chemistry IS NULL AND online_status = 1 AND phase_type IS NOT NULL
                          AND (identity_read_at IS NULL OR identity_read_at < now() - interval '${RETRY_AFTER}')
                        ORDER BY identity_read_at NULLS FIRST, id LIMIT ${PER_ROUND}
                        FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.sn, d.phase_type`,
    );
    for (let i = 0; i < rows.length; i += AT_ONCE) await Promise.all(rows.slice(i, i + AT_ONCE).map(readOne));
  }

  const tick = () => {
    if (running) return;
    running = round()
      .catch((error: unknown) => deps.log.error({ err: error }, "reading devices' identity settings failed"))
      .finally(() => {
        running = null;
      });
  };

  return {
    start() {
      if (deps.everyMs > 0 && !timer) timer = setInterval(tick, deps.everyMs);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
