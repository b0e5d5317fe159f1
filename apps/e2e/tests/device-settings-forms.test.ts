import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, screenshot } from "../src/browser.ts";
import { startSettingsFleet } from "../src/demo-fleet-fixture.ts";

/** The settings labels of the console in `locale`. */
const settingsLabels = (locale: string) =>
  JSON.parse(readFileSync(new URL(`../../../packages/i18n/locales/${locale}/settings.json`, import.meta.url), "utf8")) as {
    outOfRange: string;
    form: { discard: string };
  };

/** The settings' own names in `locale`, by register id. */
const registerLabels = (locale: string) =>
  JSON.parse(readFileSync(new URL(`../../../packages/i18n/locales/${locale}/registers.json`, import.meta.url), "utf8")) as Record<
    string,
    string
  >;

/** The generator labels of the console in `locale`. */
const generatorLabels = (locale: string) =>
  JSON.parse(readFileSync(new URL(`../../../packages/i18n/locales/${locale}/generator.json`, import.meta.url), "utf8")) as Record<
    string,
    string
  >;

/** The anti-backflow setting of the three-phase model (0–150 %). */
const ANTI_BACKFLOW = "TP_0X03_1028";

/**
 * A device's settings form against the demo fleet's simulated devices, in English and Chinese:
 * an anti-backflow value of 200 is refused with its range at the field, kept as typed (never
 * clamped to 150) and nothing is sent; "Read again" asks before discarding unsaved edits, keeps
 * them when declined and shows the device's value when confirmed.
 */
describe.skipIf(!CHROMIUM)("device settings forms in Chromium", () => {
  let fleet: Awaited<ReturnType<typeof startSettingsFleet>>;
  let deviceId = 0;
  const writes = async () =>
    Number(
      (await fleet.db().query<{ n: string }>("SELECT count(*) AS n FROM device_write WHERE device_id = $1", [deviceId])).rows[0]
        ?.n,
    );
  const field = (page: Page, id: string) => page.getByTestId(`setting-${id}`).locator("input");
  /** The field's refusal, or null when it is not refused (a fading message no longer counts). */
  const refusal = async (page: Page, id: string) => {
    const item = page.locator(".ant-form-item", { has: page.getByTestId(`setting-${id}`) }).last();
    if (!((await item.getAttribute("class")) ?? "").includes("ant-form-item-has-error")) return null;
    return await item.locator(".ant-form-item-explain-error").first().textContent();
  };

  beforeAll(async () => {
    fleet = await startSettingsFleet("ess-e2e-settings-forms-", 2);
    deviceId = await fleet.onlineDevice(2);
  }, 120_000);
  afterAll(() => fleet?.stop());

  for (const locale of ["en-US", "zh-CN"]) {
    it(`${locale}: anti-backflow 200 is refused with its range while typing, not clamped, and nothing is sent`, async () => {
      const l = settingsLabels(locale);
      const page = await fleet.open(deviceId, "48", { width: 1400, height: 1000 }, locale);
      const input = field(page, ANTI_BACKFLOW);
      await expect.poll(() => input.inputValue(), { timeout: 15_000 }).not.toBe("");
      const sent = await writes();
      await input.fill("200");
      // The refusal names the setting, then its range.
      const message = l.outOfRange
        .replace("{{field}}", registerLabels(locale)[ANTI_BACKFLOW] as string)
        .replace("{{min}}", "0")
        .replace("{{max}}", "150")
        .replace("{{unit}}", "%");
      await expect.poll(() => refusal(page, ANTI_BACKFLOW)).toBe(message);
      // Leaving the field keeps what was typed.
      await input.press("Tab");
      expect(await input.inputValue()).toBe("200");
      await page.getByTestId("settings-save").click();
      await expect.poll(() => refusal(page, ANTI_BACKFLOW)).toBe(message);
      expect(await input.inputValue()).toBe("200");
      await screenshot(page, `device-settings-anti-backflow-${locale}`);
      // A value in range clears the refusal at once.
      await input.fill("80");
      await expect.poll(() => refusal(page, ANTI_BACKFLOW)).toBeNull();
      expect(await writes()).toBe(sent);
      await page.close();
    });

    it(`${locale}: Read again asks before discarding unsaved edits, keeps them when declined, shows the device's value when confirmed`, async () => {
      const l = settingsLabels(locale);
      const page = await fleet.open(deviceId, "48", { width: 1400, height: 1000 }, locale);
      const input = field(page, "TP_0X03_1054");
      await expect.poll(() => input.inputValue(), { timeout: 15_000 }).not.toBe("");
      const held = await input.inputValue();
      const typed = held === "31" ? "32" : "31";
      await input.fill(typed);
      await page.getByTestId("settings-reload").click();
      const question = page.locator(".ant-popconfirm", { hasText: l.form.discard });
      await question.waitFor();
      await screenshot(page, `device-settings-read-again-${locale}`);
      await page.getByTestId("settings-reload-cancel").click();
      await question.waitFor({ state: "hidden" });
      expect(await input.inputValue()).toBe(typed);

      await page.getByTestId("settings-reload").click();
      await page.getByTestId("settings-reload-confirm").click();
      await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toBe(held);
      // Nothing is left unsaved: reading again now asks nothing.
      await page.getByTestId("settings-reload").click();
      expect(await page.locator(".ant-popconfirm:visible").count()).toBe(0);
      await page.close();
    });
  }

  it("en-US: the generator page shows every refusal at its field at once, and each goes when its field is fixed", async () => {
    const g = generatorLabels("en-US");
    const single = await fleet.onlineDevice(1);
    const page = await fleet.open(single, "generator", { width: 1400, height: 1100 }, "en-US");
    await page.getByTestId("generator-panel").waitFor();
    const sent = Number(
      (await fleet.db().query<{ n: string }>("SELECT count(*) AS n FROM device_write WHERE device_id = $1", [single])).rows[0]?.n,
    );
    const refusalOf = async (testId: string) => {
      const item = page.locator(".ant-form-item", { has: page.getByTestId(testId) }).last();
      if (!((await item.getAttribute("class")) ?? "").includes("ant-form-item-has-error")) return null;
      return await item.locator(".ant-form-item-explain-error").first().textContent();
    };
    // Typing a share over 100 % is refused at once, kept as typed.
    const share = page.getByTestId("generator-available-input");
    await share.fill("120");
    await expect.poll(() => refusalOf("generator-available")).toBe(g.availablePctRange);
    await page.getByTestId("generator-save").click();
    // Every other refusal, all at once, each at its own field; nothing in an alert under Save.
    await expect.poll(() => refusalOf("generator-rated")).toBe(g.ratedPowerRequired);
    expect(await refusalOf("generator-output")).toBe(g.outputModeRequired);
    expect(await refusalOf("generator-charge")).toBe(g.chargePowerRequired);
    expect(await refusalOf("generator-available")).toBe(g.availablePctRange);
    expect(await page.getByTestId("generator-outcome").count()).toBe(0);
    expect(await share.inputValue()).toBe("120");
    await screenshot(page, "device-generator-refusals-en-US");
    await share.fill("80");
    await expect.poll(() => refusalOf("generator-available")).toBeNull();
    await page.getByTestId("generator-charge-input").fill("5");
    await expect.poll(() => refusalOf("generator-charge")).toBeNull();
    expect(await refusalOf("generator-rated")).toBe(g.ratedPowerRequired);
    expect(
      Number(
        (await fleet.db().query<{ n: string }>("SELECT count(*) AS n FROM device_write WHERE device_id = $1", [single])).rows[0]
          ?.n,
      ),
    ).toBe(sent);
    await page.close();
  });
});
