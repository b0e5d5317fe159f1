import { randomBytes } from "node:crypto";
import { API, tokenClientAuthorization } from "@ess/contracts";
import { ERROR_CATALOGUE } from "@ess/domain";
import { solveSlide } from "./slide-solver.ts";

/** A refusal of the console's API: the answer's code and message, and the HTTP status. */
export class ConsoleApiError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(what: string, status: number, code: number, msg: string) {
    super(`${what}: ${msg || `HTTP ${status}`} (code ${code})`);
    this.code = code;
    this.status = status;
  }
}

/** The slide piece may not be dropped sooner than a hand could (the console refuses faster drops). */
const SLIDE_DELAY_MS = 400;
/** Longer than the repeat guard's window (a second by default). */
const REPEAT_WAIT_MS = 1500;

/**
 * Calls the console's HTTP API as any script would: signs in with account and password, solving
 * the slide verification when the console asks for one (the way a user's eye does), and calls
 * routes with the session's token. Knows the console only by its address and published routes.
 */
export function consoleClient(baseUrl: string, language = "en-US") {
  let token: string | null = null;

  async function request<T>(method: "GET" | "POST", path: string, body?: unknown, as = token): Promise<T> {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        "content-type": "application/json",
        "accept-language": language,
        authorization: as ? `Bearer ${as}` : tokenClientAuthorization(),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let answer: { code?: number; msg?: string; data?: unknown };
    try {
      answer = JSON.parse(text);
    } catch {
      throw new ConsoleApiError(`${method} ${path}`, response.status, -1, text.slice(0, 200));
    }
    if (answer.code !== 0) throw new ConsoleApiError(`${method} ${path}`, response.status, answer.code ?? -1, answer.msg ?? "");
    return answer.data as T;
  }

  /** A one-time proof of a solved slide puzzle. */
  async function slideProof(): Promise<string> {
    const randomStr = randomBytes(12).toString("base64url");
    const puzzle = await request<{ background: string; piece: string; y: number }>(
      "GET",
      `${API.captcha.slide.path}?randomStr=${randomStr}`,
    );
    const x = solveSlide(puzzle.background, puzzle.piece, puzzle.y);
    await new Promise((resolve) => setTimeout(resolve, SLIDE_DELAY_MS));
    return (await request<{ proof: string }>("POST", API.captcha.slideCheck.path, { randomStr, x })).proof;
  }

  return {
    /** `as`: another session's token than the one signed in here. */
    get: <T>(path: string, as?: string) => request<T>("GET", path, undefined, as ?? token),
    post: <T>(path: string, body: unknown, as?: string) => request<T>("POST", path, body, as ?? token),
    /** Signs in; later calls carry the session's token. Answers the token. */
    async signIn(username: string, password: string): Promise<string> {
      token = null;
      const { captcha } = await request<{ captcha: boolean }>("GET", API.captcha.settings.path);
      const proof = captcha ? { slideProof: await slideProof() } : {};
      const answer = await request<{ access_token: string }>("POST", `${API.auth.login.path}?grant_type=admin`, {
        username,
        password,
        ...proof,
      });
      token = answer.access_token;
      return token;
    },
    /**
     * Signs in as `signIn` does, waiting out once the repeat guard's "too frequent": the same
     * sign-in sent a moment before (by a provisioning step, say) is refused within its window.
     */
    async signInPatiently(username: string, password: string): Promise<string> {
      try {
        return await this.signIn(username, password);
      } catch (error) {
        if ((error as { status?: number }).status !== ERROR_CATALOGUE.tooFrequent.status) throw error;
        await new Promise((resolve) => setTimeout(resolve, REPEAT_WAIT_MS));
        return this.signIn(username, password);
      }
    },
    /** Ends the session (its tokens are revoked). */
    async signOut(): Promise<void> {
      if (token) await request("POST", API.auth.logout.path, {});
      token = null;
    },
  };
}

export type ConsoleClient = ReturnType<typeof consoleClient>;
