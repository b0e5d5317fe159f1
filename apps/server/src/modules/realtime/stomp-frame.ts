/**
 * STOMP 1.2 frames (also read by 1.0/1.1 clients): COMMAND, header lines, a blank line, the body
 * and a NUL. Heart-beats are bare end-of-lines between frames.
 * https://stomp.github.io/stomp-specification-1.2.html
 */
export interface StompFrame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", ":": "\\c" };
const UNESCAPES: Record<string, string> = { "\\\\": "\\", "\\n": "\n", "\\r": "\r", "\\c": ":" };

const escapeValue = (value: string) => value.replace(/[\\\n\r:]/g, (c) => ESCAPES[c] ?? c);
const unescapeValue = (value: string) => value.replace(/\\[\\nrc]/g, (s) => UNESCAPES[s] ?? s);

/** CONNECT and CONNECTED frames carry their headers unescaped (spec 1.2, "Value Encoding"). */
const RAW_HEADER_COMMANDS = new Set(["CONNECT", "CONNECTED"]);

export function serializeFrame(frame: StompFrame): string {
  const raw = RAW_HEADER_COMMANDS.has(frame.command);
  const lines = [frame.command];
  for (const [name, value] of Object.entries(frame.headers))
    lines.push(raw ? `${name}:${value}` : `${escapeValue(name)}:${escapeValue(value)}`);
  if (frame.body && !("content-length" in frame.headers)) lines.push(`content-length:${Buffer.byteLength(frame.body)}`);
  return `${lines.join("\n")}\n\n${frame.body}\0`;
}

export class StompSyntaxError extends Error {}

/**
 * Splits received text into frames; what follows the last NUL is kept for the next chunk.
 * Returns the frames and how many heart-beats (bare EOLs) were seen.
 */
export function createFrameReader(maxFrameBytes: number) {
  let buffer = "";
  return {
    push(chunk: string): { frames: StompFrame[]; heartbeats: number } {
      buffer += chunk;
      const frames: StompFrame[] = [];
      let heartbeats = 0;
      for (;;) {
        const lead = /^(\r?\n)+/.exec(buffer);
        if (lead) {
          heartbeats += lead[0].split("\n").length - 1;
          buffer = buffer.slice(lead[0].length);
        }
        const end = buffer.indexOf("\0");
        if (end === -1) {
          if (Buffer.byteLength(buffer) > maxFrameBytes) throw new StompSyntaxError("frame too large");
          return { frames, heartbeats };
        }
        frames.push(parseFrame(buffer.slice(0, end)));
        buffer = buffer.slice(end + 1);
      }
    },
  };
}

export function parseFrame(text: string): StompFrame {
  const split = text.search(/\r?\n\r?\n/);
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? "" : text.slice(split).replace(/^\r?\n\r?\n/, "");
  const [command = "", ...lines] = head.split(/\r?\n/);
  if (!/^[A-Z]+$/.test(command)) throw new StompSyntaxError("bad command");
  const raw = RAW_HEADER_COMMANDS.has(command);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new StompSyntaxError("bad header line");
    const name = raw ? line.slice(0, colon) : unescapeValue(line.slice(0, colon));
    // The first occurrence of a repeated header wins (spec 1.2).
    if (!(name in headers)) headers[name] = raw ? line.slice(colon + 1) : unescapeValue(line.slice(colon + 1));
  }
  return { command, headers, body };
}

/** Heart-beat periods agreed from `cx,cy` (client) and `sx,sy` (server), 0 meaning none. */
export function negotiateHeartbeat(clientHeader: string | undefined, server: [number, number]) {
  const [cx = 0, cy = 0] = (clientHeader ?? "0,0").split(",").map((n) => Number.parseInt(n, 10) || 0);
  const [sx, sy] = server;
  return {
    /** How often the server must send something. */
    sendEveryMs: sx === 0 || cy === 0 ? 0 : Math.max(sx, cy),
    /** How long the server waits for the client before giving up on it. */
    expectEveryMs: sy === 0 || cx === 0 ? 0 : Math.max(sy, cx),
  };
}
