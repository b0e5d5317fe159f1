import { describe, expect, it } from "vitest";
import { createDecodeCache } from "./decode-cache.ts";
import { encodeSep } from "./xml.ts";

const time = (currentTime: number) =>
  encodeSep("Time", {
    href: "/tm",
    currentTime,
    dstEndTime: 0,
    dstOffset: 0,
    dstStartTime: 0,
    localTime: 0,
    quality: 7,
    tzOffset: 0,
  });

describe("decode cache", () => {
  it("hands back the same decoded document while the bytes at a path are unchanged, and a new one when they change", () => {
    const cache = createDecodeCache();
    const first = cache.decode("/tm", time(100));
    expect(first.resource.currentTime).toBe(100);
    expect(cache.decode("/tm", time(100))).toBe(first);
    const changed = cache.decode("/tm", time(200));
    expect(changed).not.toBe(first);
    expect(changed.resource.currentTime).toBe(200);
  });

  it("keeps each path's own document: the same bytes at two paths are two entries", () => {
    const cache = createDecodeCache();
    cache.decode("/a", time(1));
    cache.decode("/b", time(1));
    expect(cache.size).toBe(2);
  });

  it("freezes what it hands out, so a caller cannot change what the next caller reads", () => {
    const cache = createDecodeCache();
    const document = cache.decode("/tm", time(100));
    expect(() => {
      (document.resource as Record<string, unknown>).currentTime = 5;
    }).toThrow(TypeError);
  });

  it("keeps at most its limit of paths, dropping the least recently read", () => {
    const cache = createDecodeCache(2);
    const a = cache.decode("/a", time(1));
    const b = cache.decode("/b", time(1));
    expect(cache.decode("/a", time(1))).toBe(a); // /a read again: /b is now the oldest
    cache.decode("/c", time(1));
    expect(cache.size).toBe(2);
    expect(cache.decode("/a", time(1))).toBe(a);
    expect(cache.decode("/b", time(1))).not.toBe(b); // /b was dropped: decoded anew
  });

  it("keeps nothing for a document that does not decode, and throws as decoding does", () => {
    const cache = createDecodeCache();
    expect(() => cache.decode("/x", "<Time><currentTime>1</Time>")).toThrow();
    expect(cache.size).toBe(0);
  });
});
