import { tokenClientAuthorization } from "@ess/contracts";
import { solveSlide } from "./slide-solver.ts";

/** Calls the console's API like a script would, solving the slide verification when it is on. */
export function apiClient(baseUrl: string) {
  const url = (path: string) => new URL(path, baseUrl).toString();
  async function request(method: string, path: string, body?: unknown, token?: string) {
    const response = await fetch(url(path), {
      method,
      headers: {
        "content-type": "application/json",
        "accept-language": "en-US",
        ...(token ? { authorization: `Bearer ${token}` } : { authorization: tokenClientAuthorization() }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as { code: number; msg: string; data: unknown };
    if (json.code !== 0) throw new Error(`${method} ${path}: ${json.msg}`);
    return json.data;
  }
  return {
    get: <T>(path: string, token: string) => request("GET", path, undefined, token) as Promise<T>,
    post: <T>(path: string, body: unknown, token: string) => request("POST", path, body, token) as Promise<T>,
    /** Signs in with the slide verification solved: the answer a user would give. */
    async signIn(username: string, password: string): Promise<string> {
      const randomStr = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
      const puzzle = (await request("GET", `/code?randomStr=${randomStr}`)) as { background: string; piece: string; y: number };
      const x = solveSlide(puzzle.background, puzzle.piece, puzzle.y);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const { proof } = (await request("POST", "/code/check", { randomStr, x })) as { proof: string };
      const token = (await request("POST", "/login?grant_type=admin", { username, password, slideProof: proof })) as {
        access_token: string;
      };
      return token.access_token;
    },
  };
}
