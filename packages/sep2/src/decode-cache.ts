import { decodeSep } from "./xml.ts";

/**
 * Decoding that remembers, per resource path, the last document read there and what it decoded
 * to. A poller reads the same lists again at every pollRate and almost always gets the same bytes
 * back; comparing them is far cheaper than parsing them again. What is handed out is frozen, so a
 * caller that tried to change a shared result would fail at once instead of changing the next one.
 * The paths kept are bounded (least recently read first out), so memory does not grow with what
 * the server hands out.
 */

export interface DecodedDocument {
  name: string;
  resource: Readonly<Record<string, unknown>>;
}

export interface DecodeCache {
  decode(path: string, xml: string): DecodedDocument;
  readonly size: number;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function createDecodeCache(limit = 10_000): DecodeCache {
  const kept = new Map<string, { xml: string; document: DecodedDocument }>();
  return {
    decode(path, xml) {
      const last = kept.get(path);
      if (last !== undefined) {
        kept.delete(path);
        if (last.xml === xml) {
          kept.set(path, last);
          return last.document;
        }
      }
      // A document that fails to decode throws and leaves nothing kept for its path.
      const document = deepFreeze(decodeSep(xml));
      kept.set(path, { xml, document });
      if (kept.size > limit) kept.delete(kept.keys().next().value as string);
      return document;
    },
    get size() {
      return kept.size;
    },
  };
}
