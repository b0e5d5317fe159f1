import { NMI_REFUSAL_KEYS } from "@ess/domain";
import { describe, expect, it } from "vitest";
import { flattenLabels, LOCALES } from "./index.ts";
import { loadAllResources } from "./node-loader.ts";

const resources = loadAllResources();

describe("refusals of an NMI", () => {
  it("are worded in every language", () => {
    for (const locale of LOCALES) {
      for (const key of Object.values(NMI_REFUSAL_KEYS)) {
        const [ns, path] = key.split(":") as [string, string];
        expect(flattenLabels(resources[locale][ns] ?? {}).get(path), `${locale} ${key}`).toMatch(/\{\{field\}\}/);
      }
    }
  });
});
