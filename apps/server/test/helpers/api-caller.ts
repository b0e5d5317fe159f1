export type Answer<T = unknown> = { code: number; msg: string; data: T };

/** What `inject` needs of an app (a Fastify instance, or a server of a restart test). */
export type Injectable = { inject: (options: object) => Promise<{ statusCode: number; json(): unknown }> };

/**
 * A signed-in caller of the API through `inject`: the app and token are read at each call, so a
 * test file can make it before its `beforeAll` has started the server and signed in.
 */
export function apiCaller(app: () => Injectable, token: () => string) {
  return async <T>(
    method: "GET" | "POST",
    url: string,
    payload?: unknown,
    { language = "en-US", headers = {} }: { language?: string; headers?: Record<string, string> } = {},
  ) => {
    const r = await app().inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: { authorization: `Bearer ${token()}`, "accept-language": language, ...headers },
    });
    return { status: r.statusCode, body: r.json() as Answer<T> };
  };
}
