import { describe, expect, it } from "vitest";
import { createFrameReader, negotiateHeartbeat, parseFrame, serializeFrame } from "./stomp-frame.ts";

describe("STOMP frames", () => {
  it("round-trips a frame, escaping header values except in CONNECT", () => {
    const text = serializeFrame({ command: "MESSAGE", headers: { destination: "/a:b\nc" }, body: '{"x":1}' });
    expect(text).toBe('MESSAGE\ndestination:/a\\cb\\nc\ncontent-length:7\n\n{"x":1}\0');
    expect(parseFrame(text.slice(0, -1))).toEqual({
      command: "MESSAGE",
      headers: { destination: "/a:b\nc", "content-length": "7" },
      body: '{"x":1}',
    });
    expect(parseFrame("CONNECT\nAuthorization:Bearer a:b\n\n").headers.Authorization).toBe("Bearer a:b");
  });

  it("splits chunks into frames and counts heart-beats between them", () => {
    const reader = createFrameReader(1024);
    expect(reader.push("\n\nSUBSCRIBE\nid:1\n")).toEqual({ frames: [], heartbeats: 2 });
    const next = reader.push("destination:/x\n\n\0\nDISCONNECT\n\n\0");
    expect(next.frames.map((f) => f.command)).toEqual(["SUBSCRIBE", "DISCONNECT"]);
    expect(next.frames[0]?.headers).toEqual({ id: "1", destination: "/x" });
    expect(next.heartbeats).toBe(1);
  });

  it("refuses oversized and malformed frames", () => {
    expect(() => createFrameReader(10).push("SUBSCRIBE\nid:12345678\n")).toThrow();
    expect(() => parseFrame("lower\n\n")).toThrow();
    expect(() => parseFrame("SEND\nno-colon\n\n")).toThrow();
  });

  it("agrees on heart-beats as the larger of the two sides, or none", () => {
    expect(negotiateHeartbeat("10000,1000", [5000, 5000])).toEqual({ sendEveryMs: 5000, expectEveryMs: 10000 });
    expect(negotiateHeartbeat("0,0", [5000, 5000])).toEqual({ sendEveryMs: 0, expectEveryMs: 0 });
    expect(negotiateHeartbeat(undefined, [5000, 5000])).toEqual({ sendEveryMs: 0, expectEveryMs: 0 });
  });
});
