import { describe, expect, it } from "vitest";
import { alarmEvent, commandRequest, deviceAck, settingWriteRequest } from "./messages.ts";
import { deviceTopic, isOwnTopic, parseDeviceTopic } from "./topics.ts";

describe("device topics", () => {
  it("name a device's topics and tell whose a topic is", () => {
    expect(deviceTopic("ESS01", "telemetry")).toBe("ess/v1/ESS01/telemetry");
    expect(parseDeviceTopic("ess/v1/ESS01/cmd/read")).toEqual({ sn: "ESS01", leaf: "cmd/read" });
    expect(parseDeviceTopic("ess/v1/bad sn/telemetry")).toBeNull();
    expect(parseDeviceTopic("ess/v2/ESS01/telemetry")).toBeNull();
    expect(isOwnTopic("ESS01", "ess/v1/ESS01/cmd/#")).toBe(true);
    expect(isOwnTopic("ESS01", "ess/v1/ESS02/telemetry")).toBe(false);
    expect(isOwnTopic("ESS01", "ess/v1/ESS01/")).toBe(false);
  });
});

describe("JSON payloads", () => {
  it("accept what the protocol document shows and refuse the rest", () => {
    expect(settingWriteRequest.safeParse({ v: 1, id: 77, values: [{ key: "TP_0X03_72", raw: 4 }] }).success).toBe(true);
    expect(settingWriteRequest.safeParse({ v: 1, id: 77, values: [] }).success).toBe(false);
    expect(commandRequest.safeParse({ v: 1, id: 78, command: 3 }).success).toBe(true);
    expect(commandRequest.safeParse({ v: 1, id: 78, command: 42 }).success).toBe(false);
    expect(deviceAck.safeParse({ v: 1, id: 77, ok: false, code: "needsStandby", key: "TP_0X03_1024" }).success).toBe(true);
    expect(deviceAck.safeParse({ v: 2, id: 77, ok: true }).success).toBe(false);
    expect(alarmEvent.safeParse({ v: 1, ts: 1767225600000, key: "TP_0X04_4639", bit: 3, state: "occur" }).success).toBe(true);
  });
});
