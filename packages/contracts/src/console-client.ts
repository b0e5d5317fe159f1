/**
 * The console's fixed OAuth client credential (spec §6: token calls use a fixed client
 * credential and tenant 1). It identifies the console as a client, not a user, and is no secret:
 * it ships in the browser bundle. The token route checks it as HTTP basic authorisation.
 */
export const CONSOLE_CLIENT = { id: "ess-console", secret: "ess-console" } as const;

export const consoleClientAuthorization = () => `Basic ${btoa(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`)}`;
