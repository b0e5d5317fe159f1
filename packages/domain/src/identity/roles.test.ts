import { describe, expect, it } from "vitest";
import { DEFAULT_ROLES } from "./roles.ts";

const holds = (code: string) => new Set(DEFAULT_ROLES.find((r) => r.code === code)?.permissions);

describe("default roles", () => {
  // Nobody hands out more than they hold: a distributor that lacks a permission of the installer
  // role could neither create its installers' accounts nor reset their passwords.
  it.each([
    ["DISTRIBUTOR", "DEALER"],
    ["DEALER", "INSTALLER"],
    ["INSTALLER", "END_USER"],
    ["END_USER", "SUB_USER"],
  ])("gives %s every permission of %s, the role it hands out below it", (upper, lower) => {
    const missing = [...holds(lower)].filter((p) => !holds(upper).has(p));
    expect(missing).toEqual([]);
  });
});
