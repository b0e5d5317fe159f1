/**
 * What reading a device's own report costs ingest per frame. Prints, for a full three-phase frame,
 * frames per second (CPU only, one thread) through:
 *
 *   - the per-frame work ingest did before: decode, check every value against the catalogue,
 *     key quantities, firmware versions;
 *   - the same plus the identity (model, rated power, country code: three registers read in
 *     place, `registerValues`, and `identityOfReading`);
 *   - the reported-record keeper's comparison of a 2,000-frame batch's newest readings with what
 *     it last wrote (no database: a batch whose devices changed nothing writes nothing).
 *
 *   npm run reported -w @ess/bench -- [seconds per figure=2]
 */
import { cpus } from "node:os";
import { checkFrame, decodeFrame, keyQuantities, rawWords, registerValues, registerWordsHash } from "@ess/contracts";
import { FIRMWARE_VERSION_REGISTERS, firmwareVersionsOf, IDENTITY_REGISTERS, identityOfReading } from "@ess/domain";
import { createReportedKeeper } from "@ess/server/internal/modules/telemetry/reported-keeper.ts";
import { threePhaseFrames } from "./frames.ts";

const seconds = Number(process.argv[2] ?? 2);
const say = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const binary = threePhaseFrames().binary;
const versionIds = Object.values(FIRMWARE_VERSION_REGISTERS.three).filter((r) => r !== null);
const identityIds = Object.values(IDENTITY_REGISTERS.three).filter((r) => r !== null);

function rate(label: string, perFrame: () => void) {
  for (let i = 0; i < 2000; i++) perFrame(); // warm-up
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    perFrame();
    n++;
  }
  const perSecond = n / ((performance.now() - started) / 1000);
  say(`${label}: ${fmt(perSecond)} frames/s (${(1e6 / perSecond).toFixed(1)} µs per frame)`);
  return perSecond;
}

say(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);
const before = rate("decode + check + key quantities + versions", () => {
  const frame = decodeFrame(binary);
  checkFrame(frame);
  keyQuantities(frame, "three");
  const words = rawWords(frame, versionIds);
  firmwareVersionsOf("three", (r) => words.get(r));
});
const decodeIdentity = (frame: ReturnType<typeof decodeFrame>) => {
  const values = registerValues(frame, identityIds);
  return identityOfReading("three", (r) => values.get(r));
};
const decodedEvery = rate("the same + identity decoded from every frame", () => {
  const frame = decodeFrame(binary);
  checkFrame(frame);
  keyQuantities(frame, "three");
  const words = rawWords(frame, versionIds);
  firmwareVersionsOf("three", (r) => words.get(r));
  decodeIdentity(frame);
});
const fingerprinted = createReportedKeeper();
const after = rate("the same + identity as ingest reads it (fingerprint, decoded when it changed)", () => {
  const frame = decodeFrame(binary);
  checkFrame(frame);
  keyQuantities(frame, "three");
  const words = rawWords(frame, versionIds);
  firmwareVersionsOf("three", (r) => words.get(r));
  fingerprinted.identityOf(1, registerWordsHash(frame, identityIds), () => decodeIdentity(frame));
});
const added = (rate: number) => `${(1e6 / rate - 1e6 / before).toFixed(2)} µs per frame`;
say(
  `identity adds ${added(after)} as ingest reads it, ${added(decodedEvery)} decoded every time (timings on a shared machine vary by ±1 µs)`,
);

const keeper = createReportedKeeper();
const batch = Array.from({ length: 2000 }, (_, i) => ({
  deviceId: i + 1,
  ts: Date.now(),
  versions: { dongle: "1.30", mcu: "1.32", dsp: "2.15", battery: "1.21" },
  identity: { model: "H3-12K", ratedPower: 12, countryCode: 2 },
}));
keeper.remember(batch);
let batches = 0;
const started = performance.now();
while (performance.now() - started < seconds * 1000) {
  if (keeper.changed(batch).length !== 0) throw new Error("an unchanged batch should write nothing");
  batches++;
}
const perBatch = (performance.now() - started) / batches;
say(
  `keeper, 2,000 unchanged devices: ${perBatch.toFixed(3)} ms per batch (${((perBatch * 1000) / 2000).toFixed(2)} µs per frame), nothing written`,
);
