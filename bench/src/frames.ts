import {
  baselineValues,
  blocksFromValues,
  encodeFrame,
  FAMILY_CODES,
  TELEMETRY_REGISTERS,
  telemetryLayout,
} from "@ess/contracts";
import { ENUMS, isEnumName } from "@ess/domain";

/** A full three-phase reading with plausible values, in the three encodings compared. */
export function threePhaseFrames() {
  const values: Record<string, number | string> = {
    ...baselineValues(TELEMETRY_REGISTERS.three),
    ...varied(),
    TP_0X04_1082: 231.2,
    TP_0X04_1083: 229.8,
    TP_0X04_1084: 230.6,
    TP_0X04_1088: 50.01,
    TP_0X04_1061: 3.42,
    TP_0X04_1062: 2.97,
    TP_0X04_1074: 64,
    TP_0X04_1073: -1800,
    TP_0X04_1128_1129: -2150,
    TP_0X04_1234_1235: 2460,
    TP_0X04_33_34: 18342.7,
    TP_0X04_37_38: 9211.4,
  };
  for (let cell = 0; cell < 16; cell++) values[`TP_0X04_${5120 + cell}`] = 3300 + ((cell * 7) % 13);
  const blocks = blocksFromValues(telemetryLayout("three"), values);
  const header = { kind: "telemetry" as const, ts: Date.now(), seq: 1, requestId: 0, page: 0, flags: 0 };
  const binary = encodeFrame(header, blocks);
  const named = JSON.stringify({ v: 1, ts: header.ts, seq: 1, values });
  const addressBlocks = JSON.stringify({
    v: 1,
    ts: header.ts,
    seq: 1,
    blocks: blocks.map((b) => [FAMILY_CODES[b.family], b.start, Array.from(b.words)]),
  });
  return { binary, named, addressBlocks, values: TELEMETRY_REGISTERS.three.length };
}

/**
 * Every register with a value of its own (a deterministic spread inside its range), so the sizes
 * and parse costs compared are those of a live reading rather than of a frame of zeros.
 */
function varied(): Record<string, number> {
  const out: Record<string, number> = {};
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (const r of TELEMETRY_REGISTERS.three) {
    if (r.type === "string" || r.type === "dateTime") continue;
    if (r.enum && isEnumName(r.enum)) {
      const codes = ENUMS[r.enum].values;
      out[r.id] = codes[Math.floor(next() * codes.length)] ?? 0;
      continue;
    }
    // Readings sit in the lower part of wide ranges (a 6 kW inverter on a ±200 kW register).
    const span = Math.min(r.max - r.min, (r.max - r.min) * 0.05 + 1);
    out[r.id] = Number((r.min + next() * span).toFixed(Math.max(0, -Math.log10(r.scale))));
  }
  return out;
}

/**
 * Full three-phase frames as the simulator's inverters send them (physics, alarm words, idle
 * registers at rest), from a few different installations.
 */
export async function simulatedThreePhaseFrames(count = 8): Promise<Buffer[]> {
  const { DeviceBrain, plantSpecOf } = await import("@ess/simulator");
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const brain = new DeviceBrain(plantSpecOf(`BENCH${i}`, i * 5 + 1, 11), now - 3_600_000, { faultsPerDay: 2, warmUp: true });
    brain.tick(now);
    return encodeFrame({ kind: "telemetry", ts: now, seq: 1, requestId: 0, page: 0, flags: 0 }, brain.telemetryBlocks());
  });
}
