import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getRegister, isValidValue } from "../catalogue/catalogue.ts";
import { ENUMS, isEnumName } from "../catalogue/enums.ts";
import { generatorRegisterValues } from "./generator-registers.ts";
import { checkGenerator, GENERATOR_OUTPUT_MODES, type GeneratorInput } from "./generator-rules.ts";
import { timeOf } from "./time-periods.ts";

const minute = fc.integer({ min: 0, max: 23 * 60 + 58 });
const page: fc.Arbitrary<GeneratorInput> = fc
  .record({
    on: fc.boolean(),
    ratedPowerKw: fc.integer({ min: 10, max: 50 }),
    availablePct: fc.integer({ min: 0, max: 100 }),
    controlMode: fc.constantFrom("manual" as const, "soc" as const),
    socLower: fc.integer({ min: 0, max: 99 }),
    gap: fc.integer({ min: 1, max: 100 }),
    slot: fc.option(minute.chain((a) => fc.integer({ min: a + 1, max: 23 * 60 + 59 }).map((b) => [a, b] as const))),
    outputMode: fc.constantFrom(...GENERATOR_OUTPUT_MODES),
    chargePowerKw: fc.integer({ min: 0, max: 80 }),
  })
  .map(({ gap, slot, ...p }) => ({
    ...p,
    socUpper: Math.min(100, p.socLower + gap),
    slots: slot ? [{ start: timeOf(slot[0]), end: timeOf(slot[1]) }] : [],
  }));

describe("the generator page on the device's registers", () => {
  it("writes only settable registers of the model, each within its catalogue range", () => {
    fc.assert(
      fc.property(page, fc.constantFrom("single" as const, "three" as const), (input, product) => {
        expect(checkGenerator(input, { gridConnected: false })).toEqual([]);
        for (const [id, value] of Object.entries(generatorRegisterValues(product, input))) {
          const r = getRegister(id);
          expect(r?.product).toBe(product);
          expect(r?.access).toBe("readWrite");
          const codes = r?.enum && isEnumName(r.enum) ? ENUMS[r.enum].values : undefined;
          expect(r && isValidValue(r, value, codes), `${id} = ${value}`).toBe(true);
        }
      }),
    );
  });

  it("forces a manual generator on or off, leaves SOC control to the device, and writes its first slot", () => {
    const base: GeneratorInput = {
      on: true,
      ratedPowerKw: 20,
      availablePct: 50,
      controlMode: "manual",
      slots: [
        { start: "18:00", end: "20:00" },
        { start: "06:15", end: "07:45" },
      ],
      outputMode: 0,
      chargePowerKw: 5,
    };
    expect(generatorRegisterValues("single", base)).toMatchObject({
      PROTOCOL_ADDR_409: 1,
      HM_0X03_437: 1,
      PROTOCOL_ADDR_416: 0,
      PROTOCOL_ADDR_417: 1,
      PROTOCOL_ADDR_419: 25,
      HM_0X03_480: 1,
      HM_0X03_481: 6,
      HM_0X03_482: 15,
      HM_0X03_483: 7,
      HM_0X03_484: 45,
    });
    expect(generatorRegisterValues("single", { ...base, on: false }).HM_0X03_437).toBe(2);
    expect(generatorRegisterValues("single", { ...base, controlMode: "soc", socLower: 20, socUpper: 80 })).toMatchObject({
      HM_0X03_437: 0,
      PROTOCOL_ADDR_411: 20,
      PROTOCOL_ADDR_413: 80,
    });
    expect(generatorRegisterValues("single", { ...base, slots: [] }).HM_0X03_480).toBe(0);
  });
});
