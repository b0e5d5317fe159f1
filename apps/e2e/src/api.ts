import { consoleClient } from "@ess/simulator";

/**
 * Calls the console's API like a script would (the simulator's console client), solving the slide
 * verification when it is on; each call names the session it is made in.
 */
export function apiClient(baseUrl: string) {
  const client = consoleClient(baseUrl);
  return {
    get: <T>(path: string, token: string) => client.get<T>(path, token),
    post: <T>(path: string, body: unknown, token: string) => client.post<T>(path, body, token),
    /** Signs in (a session of its own) with the slide verification solved: the answer a user would give. */
    signIn: (username: string, password: string) => consoleClient(baseUrl).signIn(username, password),
  };
}
