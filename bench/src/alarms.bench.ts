/**
 * Alarm detection's cost per reading. Prints, in one run:
 *
 *   - words: full three-phase frames per second through reading the alarm and status words
 *     (`rawWords`) and turning them into observations (CPU only, what ingest adds per frame);
 *   - detector, quiet fleet: readings per second through the detector when no alarm is open
 *     (the usual case: no database work but deleting the batches' notes, once a second);
 *   - detector, flapping: readings per second when a share of the devices flaps a condition on
 *     every reading (each batch one transaction on the open alarms), on embedded PGlite.
 *
 *   npm run alarms -w @ess/bench -- [devices=2000] [readings per device=20] [flapping share=0.05]
 */
import { cpus } from "node:os";
import { decodeFrame, rawWords } from "@ess/contracts";
import { ALARM_WORD_REGISTERS } from "@ess/domain";
import { migrate } from "@ess/server/internal/db/migrate.ts";
import { openPglite } from "@ess/server/internal/db/pglite.driver.ts";
import { createTranslator } from "@ess/server/internal/i18n/translator.ts";
import { createAlarmDetector } from "@ess/server/internal/modules/faults/alarm-detector.ts";
import { observationsOfFrame } from "@ess/server/internal/modules/faults/alarm-observations.ts";
import { createFaultCache } from "@ess/server/internal/modules/faults/fault-cache.ts";
import { seedFaults } from "@ess/server/internal/seed/faults.seed.ts";
import { threePhaseFrames } from "./frames.ts";

const deviceCount = Number(process.argv[2] ?? 2000);
const readings = Number(process.argv[3] ?? 20);
const flapShare = Number(process.argv[4] ?? 0.05);
const say = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

say(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);

// Words: decode the header and blocks, read the watched words, make observations.
const binary = threePhaseFrames().binary;
const device = { id: 1, sn: "B1", tenantId: 1, timeZone: "UTC", phaseType: 2 as const };
let n = 0;
const started = performance.now();
while (performance.now() - started < 2000) {
  const frame = decodeFrame(binary);
  const ts = Date.now();
  observationsOfFrame({ device, ts, receivedAt: ts, words: rawWords(frame, ALARM_WORD_REGISTERS.three) });
  n++;
}
say(
  `words: ${fmt(n / ((performance.now() - started) / 1000))} frames/s (${ALARM_WORD_REGISTERS.three.length} words read per frame)`,
);

const db = await openPglite(undefined);
await migrate(db);
await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
await db.transaction((tx) => seedFaults(tx, 1));
const { rows } = await db.query<{ id: number }>(
  "INSERT INTO device (tenant_id, sn, phase_type) SELECT 1, 'B' || g, 2 FROM generate_series(1, $1) g RETURNING id",
  [deviceCount],
);
const ids = rows.map((r) => r.id);
const log = { info() {}, warn() {}, error: (o: unknown) => say(`error: ${JSON.stringify(o)}`) };
const detector = createAlarmDetector({
  db,
  catalogue: createFaultCache(db, await createTranslator()),
  log: log as never,
  clearHoldMs: 60_000,
  onOpened: () => {},
});
// No sweep: the bench measures detection of readings (the sweep runs under a lease in a console).
await detector.start();

const wordsOf = (alarmBit: boolean) =>
  new Map<string, number>(
    ALARM_WORD_REGISTERS.three.map((k) => [
      k,
      k === "TP_0X04_4639" && alarmBit ? 1 : k.startsWith("TP_0X04_") && /_(18|19|20)$/.test(k) ? 1 : 0,
    ]),
  );
const quiet = wordsOf(false);
const alarm = wordsOf(true);

async function pass(label: string, flapping: number) {
  const t0 = Date.now() - 86_400_000;
  const start = performance.now();
  for (let r = 0; r < readings; r++) {
    const ts = t0 + r * 10_000;
    detector.frames(
      ids.map((id, i) => ({ device: { ...device, id }, ts, receivedAt: ts, words: i < flapping && r % 2 === 0 ? alarm : quiet })),
      null,
    );
  }
  await detector.settled();
  const s = (performance.now() - start) / 1000;
  say(`detector, ${label}: ${fmt((ids.length * readings) / s)} readings/s (${fmt(ids.length)} devices × ${readings} readings)`);
}

await pass("quiet fleet", 0);
const flapping = Math.round(deviceCount * flapShare);
await pass(`${flapping} devices flapping every reading`, flapping);
const stored = await db.query<{ n: number; flaps: number }>(
  "SELECT count(*)::int AS n, COALESCE(sum(flap_count), 0)::int AS flaps FROM device_alarm",
);
say(`alarms stored: ${stored.rows[0]?.n} (flaps counted: ${stored.rows[0]?.flaps})`);
await detector.stop();
await db.close();
