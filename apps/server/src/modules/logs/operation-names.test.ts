import { LOCALES, OPERATION_IDS } from "@ess/domain";
import { flattenLabels } from "@ess/i18n";
import { loadAllResources } from "@ess/i18n/node";
import { describe, expect, it } from "vitest";
import { loggedOperations } from "./audit.hook.ts";
import { CLIENT_ERROR_OPERATION } from "./log.writer.ts";

describe("operation names in the operation log", () => {
  const canLog = [...loggedOperations(), CLIENT_ERROR_OPERATION];

  it("lists in the domain catalogue exactly the operations the server can log", () => {
    expect([...canLog].sort()).toEqual([...OPERATION_IDS].sort());
  });

  it.each(LOCALES)("names every operation the server can log in %s", (locale) => {
    const names = flattenLabels(loadAllResources()[locale].operations ?? {});
    const unnamed = canLog.filter((id) => !names.get(id)?.trim());
    expect(unnamed).toEqual([]);
    // A name is words for a person, never the key itself.
    expect(canLog.filter((id) => names.get(id) === id)).toEqual([]);
  });
});
