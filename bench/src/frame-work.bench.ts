/**
 * The ingest's work per frame in Node, without broker or database: each step the ingest runs for
 * every stored reading (ingest.ts), timed alone over the simulator's full three-phase frames, in
 * µs per frame. Says which step to make cheaper before a whole-pipeline run of the ingest bench.
 *
 *   npm run frame-work -w @ess/bench -- [frames=200000]
 */
import { cpus } from "node:os";
import {
  checkFrame,
  type DecodedFrame,
  decodeFrame,
  FRAME_HEADER_BYTES,
  keyQuantities,
  packZeroRuns,
  productOfFrame,
  rawWords,
  registerWordsHash,
} from "@ess/contracts";
import { ALARM_WORD_REGISTERS } from "@ess/domain";
import { IDENTITY_IDS, versionsOf } from "@ess/server/internal/modules/telemetry/ingest.ts";
import { simulatedThreePhaseFrames } from "./frames.ts";

const count = Number(process.argv[2] ?? 200_000);
const payloads = await simulatedThreePhaseFrames(8);
const decoded = payloads.map((p) => decodeFrame(p));
// Eight different readings in turn, as a batch holds different devices' frames.
const payloadAt = (i: number) => payloads[i % payloads.length] as Buffer;
const frameAt = (i: number) => decoded[i % decoded.length] as DecodedFrame;

// Each result is looked at, so that the optimiser cannot drop a call as unused.
let sink = 0;
const steps: [string, (i: number) => unknown][] = [
  ["decodeFrame", (i) => decodeFrame(payloadAt(i))],
  ["productOfFrame", (i) => productOfFrame(frameAt(i))],
  ["checkFrame", (i) => checkFrame(frameAt(i))],
  ["keyQuantities", (i) => keyQuantities(frameAt(i), "three")],
  ["rawWords (alarm words)", (i) => rawWords(frameAt(i), ALARM_WORD_REGISTERS.three)],
  ["firmware versions", (i) => versionsOf(frameAt(i), "three")],
  ["identity fingerprint", (i) => registerWordsHash(frameAt(i), IDENTITY_IDS.three)],
  ["packZeroRuns", (i) => packZeroRuns(payloadAt(i).subarray(FRAME_HEADER_BYTES))],
];

process.stdout.write(`${cpus()[0]?.model ?? "unknown"}; ${count.toLocaleString("en-US")} frames per step\n`);
let total = 0;
for (const [name, step] of steps) {
  for (let i = 0; i < 20_000; i++) if (step(i)) sink++; // warm-up: the optimiser's tiers
  const t0 = performance.now();
  for (let i = 0; i < count; i++) if (step(i)) sink++;
  const us = ((performance.now() - t0) * 1000) / count;
  total += us;
  process.stdout.write(`${name.padEnd(26)}${us.toFixed(2).padStart(8)} µs\n`);
}
process.stdout.write(
  `${"all of them".padEnd(26)}${total.toFixed(2).padStart(8)} µs per frame (${sink.toLocaleString("en-US")} results)\n`,
);
