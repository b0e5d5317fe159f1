import { versionFromRegister } from "../ota/ota.ts";

/** The firmware parts whose versions a device record keeps (spec §3 Device, details header). */
export const FIRMWARE_PARTS = ["dongle", "mcu", "dsp", "battery"] as const;
export type FirmwarePart = (typeof FIRMWARE_PARTS)[number];

/**
 * Where each product reports each part's version (catalogue: three-phase page 46 monitoring
 * program, page 41 MCU, page 42 DSP1, page 45 BMS; single-phase page 7 MCU and DSP). Single-phase
 * inverters report no communication-stick version, and their battery software version is on page 9,
 * which their periodic readings (page 7) do not carry.
 */
export const FIRMWARE_VERSION_REGISTERS: Readonly<Record<"single" | "three", Readonly<Record<FirmwarePart, string | null>>>> = {
  three: { dongle: "TP_0X04_32797", mcu: "TP_0X04_1", dsp: "TP_0X04_1036", battery: "TP_0X04_5713" },
  single: { dongle: null, mcu: "mcuSoftwareVersion", dsp: "dspSoftwareVersion", battery: null },
};

/** The versions a reading's raw words carry (hundredths, 132 → "1.32"); 0 means "not reported". */
export function firmwareVersionsOf(
  product: "single" | "three",
  word: (register: string) => number | undefined,
): Partial<Record<FirmwarePart, string>> {
  const out: Partial<Record<FirmwarePart, string>> = {};
  for (const part of FIRMWARE_PARTS) {
    const register = FIRMWARE_VERSION_REGISTERS[product][part];
    const raw = register ? word(register) : undefined;
    if (raw !== undefined && raw > 0) out[part] = versionFromRegister(raw);
  }
  return out;
}
