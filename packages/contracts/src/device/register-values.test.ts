import { describe, expect, it } from "vitest";
import { decodeFrame, encodeFrame, type FrameHeader } from "./frame.ts";
import { baselineValues, blocksFromValues } from "./frame-builder.ts";
import { registerValues, registerWordsHash } from "./frame-values.ts";
import { TELEMETRY_REGISTERS, telemetryLayout } from "./wire-map.ts";

const header: FrameHeader = { kind: "telemetry", ts: 1_767_225_600_000, seq: 1, requestId: 0, page: 0, flags: 0 };
const IDS = ["TP_0X04_32780_32787", "TP_0X04_1037", "TP_0X04_1031"];
const frameOf = (values: Record<string, number | string>) =>
  decodeFrame(
    encodeFrame(header, blocksFromValues(telemetryLayout("three"), { ...baselineValues(TELEMETRY_REGISTERS.three), ...values })),
  );

describe("a few registers read in place", () => {
  it("reads a string, a scaled number and an enumeration as the catalogue defines them", () => {
    const values = registerValues(frameOf({ TP_0X04_32780_32787: "H3-15K", TP_0X04_1037: 15, TP_0X04_1031: 13 }), IDS);
    expect(Object.fromEntries(values)).toEqual({ TP_0X04_32780_32787: "H3-15K", TP_0X04_1037: 15, TP_0X04_1031: 13 });
  });

  it("gives a value outside its range as null, and leaves out a register the frame lacks or the catalogue does not know", () => {
    const values = registerValues(frameOf({ TP_0X04_1031: 99 }), [...IDS, "ratedPower", "NOPE_1"]);
    expect(values.get("TP_0X04_1031")).toBeNull();
    expect(values.has("ratedPower")).toBe(false);
    expect(values.has("NOPE_1")).toBe(false);
  });

  it("fingerprints the same words alike and any changed word differently", () => {
    const base = { TP_0X04_32780_32787: "H3-15K", TP_0X04_1037: 15, TP_0X04_1031: 13 };
    const hash = registerWordsHash(frameOf(base), IDS);
    // Another register (the MCU version) changing leaves the fingerprint of these as it was.
    expect(registerWordsHash(frameOf({ ...base, TP_0X04_1: 145 }), IDS)).toBe(hash);
    for (const changed of [{ TP_0X04_32780_32787: "H3-15L" }, { TP_0X04_1037: 15.01 }, { TP_0X04_1031: 2 }]) {
      expect(registerWordsHash(frameOf({ ...base, ...changed }), IDS)).not.toBe(hash);
    }
  });
});
