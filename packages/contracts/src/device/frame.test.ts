import { getRegister, KEY_QUANTITIES, REGISTERS } from "@ess/domain";
import { describe, expect, it } from "vitest";
import { decodeFrame, encodeFrame, FrameError, type FrameHeader, wordAt } from "./frame.ts";
import { baselineValues, blocksFromValues } from "./frame-builder.ts";
import { checkFrame, decodeValues, keyQuantities, productOfFrame } from "./frame-values.ts";
import { SP_KEY_MAP_V1 } from "./sp-key-map.generated.ts";
import { pageLayout, TELEMETRY_REGISTERS, telemetryLayout, wireSpan } from "./wire-map.ts";
import { wordsOf } from "./words.ts";

const header: FrameHeader = { kind: "telemetry", ts: 1_767_225_600_123, seq: 42, requestId: 0, page: 0, flags: 0 };
const threeBase = baselineValues(TELEMETRY_REGISTERS.three);
const singleBase = baselineValues(TELEMETRY_REGISTERS.single);
const column = (name: string) => KEY_QUANTITIES.findIndex((k) => k.column === name);

describe("binary register frames", () => {
  it("round-trips header and blocks", () => {
    const bytes = encodeFrame({ ...header, kind: "page", requestId: 7, page: 47 }, [
      { family: "TP_0X03", start: 72, words: [4, 65535] },
    ]);
    const frame = decodeFrame(bytes);
    expect(frame.header).toEqual({ ...header, kind: "page", requestId: 7, page: 47 });
    expect(wordAt(frame, "TP_0X03", 73)).toBe(65535);
    expect(wordAt(frame, "TP_0X03", 74)).toBeUndefined();
  });

  it("carries a whole three-phase reading (549 values in 725 words) in about 1.6 KB", () => {
    const bytes = encodeFrame(header, blocksFromValues(telemetryLayout("three"), threeBase));
    const frame = decodeFrame(bytes);
    expect(bytes.length).toBeGreaterThan(1450);
    expect(bytes.length).toBeLessThan(1700);
    expect(checkFrame(frame)).toEqual({ values: TELEMETRY_REGISTERS.three.length, invalid: [], unknown: 0 });
    expect(productOfFrame(frame)).toBe("three");
  });

  it("refuses malformed frames with a reason", () => {
    const good = encodeFrame(header, [{ family: "TP_0X04", start: 25, words: [50] }]);
    expect(() => decodeFrame(good.subarray(0, 10))).toThrow(FrameError);
    expect(() => decodeFrame(good.subarray(0, good.length - 1))).toThrow(/past the end/);
    expect(() => decodeFrame(Buffer.concat([good, Buffer.from([0])]))).toThrow(/trailing/);
    const wrongMagic = Buffer.from(good);
    wrongMagic[0] = 0x7b;
    expect(() => decodeFrame(wrongMagic)).toThrow(/not a register frame/);
    const wrongFamily = Buffer.from(good);
    wrongFamily[24] = 99;
    expect(() => decodeFrame(wrongFamily)).toThrow(/family/);
  });
});

describe("values of a frame", () => {
  const values = {
    TP_0X04_1082: 230.5,
    TP_0X04_1128_1129: -2500,
    TP_0X04_1113_1114: -1800,
    TP_0X04_1172_1173: 950,
    TP_0X04_1074: 63,
    TP_0X04_1061: 3.12,
    TP_0X04_1062: 1.5,
    TP_0X04_1050: 7,
    TP_0X04_33_34: 12345.6,
    TP_0X04_32805_32812: "ESS3P0001",
  };

  it("decodes engineering values, signed 32-bit values and text", () => {
    const frame = decodeFrame(encodeFrame(header, blocksFromValues(telemetryLayout("three"), { ...threeBase, ...values })));
    const decoded = decodeValues(frame);
    expect(decoded.invalid).toEqual([]);
    expect(decoded.values).toMatchObject(values);
    const kq = keyQuantities(frame, "three");
    expect(kq[column("pv_power")]).toBe(4620);
    expect(kq[column("grid_power")]).toBe(-2500);
    expect(kq[column("grid_reactive_power")]).toBe(-1800);
    expect(kq[column("inverter_reactive_power")]).toBe(950);
    expect(kq[column("battery_soc")]).toBe(63);
    expect(kq[column("pv_total")]).toBe(12345.6);
    expect(kq[column("system_state")]).toBe(7);
  });

  it("flags out-of-range values and unknown codes, and counts non-zero padding", () => {
    const blocks = blocksFromValues(telemetryLayout("three"), { ...threeBase, ...values, TP_0X04_1074: 101, TP_0X04_1034: 9 });
    const frame = decodeFrame(encodeFrame(header, blocks));
    const check = checkFrame(frame);
    expect(check.invalid.sort()).toEqual(["TP_0X04_1034", "TP_0X04_1074"]);
    expect(check.unknown).toBe(0);
    expect(decodeValues(frame).values.TP_0X04_1074).toBeNull();
    expect(keyQuantities(frame, "three")[column("battery_soc")]).toBeNull();

    const padded = encodeFrame(header, [{ family: "TP_0X04", start: 21, words: [7, 0, 0, 0, 50] }]);
    expect(checkFrame(decodeFrame(padded))).toEqual({ values: 2, invalid: [], unknown: 1 });
  });

  it("reads single-phase frames through the key map", () => {
    const frame = decodeFrame(
      encodeFrame(
        header,
        blocksFromValues(telemetryLayout("single"), {
          ...singleBase,
          pv1Power: 2000,
          pv2Power: 800,
          batteryTotalSoc: 81,
          totalPowerGeneration: 4321.5,
          batteryCurrent: -12.5,
          reactivePowerOfThePowerGrid: -320,
          invertedReactivePowerA: 410,
          invertedReactivePowerB: 25,
          invertedReactivePowerC: -5,
        }),
      ),
    );
    expect(productOfFrame(frame)).toBe("single");
    const kq = keyQuantities(frame, "single");
    expect(kq[column("pv_power")]).toBe(2800);
    expect(kq[column("battery_soc")]).toBe(81);
    expect(kq[column("pv_total")]).toBe(4321.5);
    expect(kq[column("battery_current")]).toBe(-12.5);
    expect(kq[column("grid_reactive_power")]).toBe(-320);
    // Phases B and C, where a product has them, add to A.
    expect(kq[column("inverter_reactive_power")]).toBe(430);
    expect(kq[column("battery_soh")]).toBeNull();
  });

  it("answers every live page with the page's registers", () => {
    for (const page of [7, 8, 9, 11, 13, 15, 41, 42, 43, 44, 45, 46, 47, 48, 49]) {
      const frame = decodeFrame(
        encodeFrame({ ...header, kind: "page", page, requestId: 1 }, blocksFromValues(pageLayout(page), {})),
      );
      expect(checkFrame(frame).values, `page ${page}`).toBeGreaterThan(0);
    }
  });
});

describe("single-phase key map", () => {
  it("gives every single-phase key of the catalogue one place with room for its value", () => {
    const keys = SP_KEY_MAP_V1.map(([k]) => k);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of REGISTERS.filter((x) => x.family === "SP_KEY")) {
      const entry = SP_KEY_MAP_V1.find(([k]) => k === r.id);
      expect(entry, r.id).toBeDefined();
      expect(entry?.[1], r.id).toBeGreaterThanOrEqual(wordsOf(r));
    }
    // The first keys keep their addresses for good (append-only map).
    expect(wireSpan(getRegister("displayType") as never)).toEqual({ family: "SP_KEY", start: 0, words: 1 });
  });
});
