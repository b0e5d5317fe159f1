import { describe, expect, it } from "vitest";
import { localDay, utcDay } from "./local-day.ts";

const ZONES = [
  "Europe/Rome",
  "America/St_Johns", // −3:30, with daylight saving
  "Asia/Kathmandu", // +5:45
  "Australia/Lord_Howe", // a half-hour daylight-saving shift
  "Pacific/Chatham", // +12:45 / +13:45
  "Pacific/Kiritimati", // +14
  "UTC",
];

const direct = (ms: number, timeZone: string) => new Date(ms).toLocaleDateString("en-CA", { timeZone });

describe("localDay", () => {
  it("gives the zone's calendar day every five minutes around midnights and offset changes", () => {
    // Every five minutes across the spring and autumn changes of 2026 in both hemispheres.
    const ranges = [Date.UTC(2026, 2, 27), Date.UTC(2026, 3, 3), Date.UTC(2026, 8, 25), Date.UTC(2026, 9, 23)];
    let checked = 0;
    for (const zone of ZONES) {
      for (const start of ranges) {
        for (let ms = start; ms < start + 3 * 86_400_000; ms += 5 * 60_000) {
          expect(localDay(ms, zone)).toBe(direct(ms, zone));
          checked++;
        }
      }
    }
    expect(checked).toBe(ZONES.length * 4 * 3 * 288);
  });

  it("answers readings out of time order (a device's buffered frames) for the right day", () => {
    const late = Date.UTC(2026, 10, 22, 23, 59, 30);
    const early = Date.UTC(2026, 10, 22, 0, 0, 30);
    expect(localDay(late, "Europe/Rome")).toBe("2026-11-23");
    expect(localDay(early, "Europe/Rome")).toBe("2026-11-22");
    expect(localDay(late, "Europe/Rome")).toBe("2026-11-23");
    expect(utcDay(late)).toBe("2026-11-22");
    expect(utcDay(late + 30_000)).toBe("2026-11-23");
  });
});
