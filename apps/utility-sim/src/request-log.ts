/**
 * Every request the server received, in order, with what it answered: what a conformance check
 * reads ("the client GET /edev/1/der", "polled /edev/1/derp every 60 s", "PUT DERSettings with
 * setMaxW"). Listeners hear each request twice: when it arrives (before it is served, so a step
 * engine can change the server's state first, as the procedures' events do) and once it has been
 * answered (with its status).
 */

export interface RequestLogEntry {
  /** 1, 2, 3… in arrival order. */
  seq: number;
  /** Server time of arrival (compressed clock), ms since 1970. */
  at: number;
  /** Real time of arrival, ms since 1970. */
  realAt: number;
  method: string;
  /** Path without the query. */
  path: string;
  /** The query string without "?" ("" when none). */
  query: string;
  /** LFDI of the client certificate. */
  lfdi: string;
  /** The request body as received (XML text), "" when none. */
  body: string;
  /** Content-Type header of the request, if any (a 2030.5 client sends application/sep+xml). */
  contentType?: string;
  /** HTTP status answered; absent while the request is being served. */
  status?: number;
  /** Location header answered, if any. */
  location?: string;
}

export type RequestPhase = "received" | "served";
export type RequestListener = (entry: Readonly<RequestLogEntry>, phase: RequestPhase) => void;

export interface RequestFilter {
  method?: string;
  /** Exact path, or a pattern where `*` stands for one path segment (as the procedures write them). */
  path?: string;
  /** Only entries with a sequence number above this. */
  after?: number;
  lfdi?: string;
}

function pathMatcher(pattern: string): (path: string) => boolean {
  if (!pattern.includes("*")) return (path) => path === pattern;
  const regex = new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  );
  return (path) => regex.test(path);
}

export class RequestLog {
  readonly #entries: RequestLogEntry[] = [];
  readonly #listeners = new Set<RequestListener>();

  /** Records an arriving request and tells the listeners. */
  receive(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    const recorded = { ...entry, seq: this.#entries.length + 1 };
    this.#entries.push(recorded);
    this.#notify(recorded, "received");
    return recorded;
  }

  /** Completes a request's entry with its answer and tells the listeners. */
  served(entry: RequestLogEntry, status: number, location?: string): void {
    entry.status = status;
    if (location) entry.location = location;
    this.#notify(entry, "served");
  }

  /** A copy of the entries that match. */
  entries(filter: RequestFilter = {}): RequestLogEntry[] {
    const matches = filter.path === undefined ? () => true : pathMatcher(filter.path);
    return this.#entries
      .filter(
        (e) =>
          (filter.method === undefined || e.method === filter.method) &&
          matches(e.path) &&
          (filter.after === undefined || e.seq > filter.after) &&
          (filter.lfdi === undefined || e.lfdi === filter.lfdi),
      )
      .map((e) => ({ ...e }));
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: RequestListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(entry: RequestLogEntry, phase: RequestPhase): void {
    // A failing listener is a bug in the test or engine, not a reason to fail the client's request.
    for (const listener of this.#listeners) {
      try {
        listener(entry, phase);
      } catch (error) {
        console.error("utility-sim: request listener failed", error);
      }
    }
  }
}
