import { describe, expect, it } from "vitest";
import { filterPattern, topicMatches } from "./bus.ts";

describe("subscription filters", () => {
  it("match topics as MQTT does, compiled or not", () => {
    const cases: [string, string, boolean][] = [
      ["ess/v1/+/telemetry", "ess/v1/AB1/telemetry", true],
      ["ess/v1/+/telemetry", "ess/v1/AB1/page", false],
      ["ess/v1/+/telemetry", "ess/v1/AB1/x/telemetry", false],
      ["ess/v1/#", "ess/v1/AB/cmd/read", true],
      ["ess/v1/#", "ess/v1", true],
      ["a/b.c/+", "a/bXc/d", false],
    ];
    for (const [filter, topic, expected] of cases) {
      expect(topicMatches(filter, topic), `${filter} ${topic}`).toBe(expected);
      expect(filterPattern(filter).test(topic), `${filter} ${topic} (compiled)`).toBe(expected);
    }
  });
});
