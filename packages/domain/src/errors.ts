/**
 * The error catalogue of the console (spec §8). `code` is the catalogue code the console shows and
 * maps to a message; `status` is the HTTP status the server answers with; `bodyCode` is the
 * envelope's `code` (1 for an error, 5 for an expired session that forces a new sign-in).
 * Every message key lives in the i18n namespace `errors`.
 */
export const ERROR_CATALOGUE = {
  tooFrequent: { code: "000", status: 409, bodyCode: 1 },
  validation: { code: "400", status: 400, bodyCode: 1 },
  unauthorized: { code: "401", status: 401, bodyCode: 1 },
  sessionExpired: { code: "401", status: 401, bodyCode: 5 },
  forbidden: { code: "403", status: 403, bodyCode: 1 },
  notFound: { code: "404", status: 404, bodyCode: 1 },
  conflict: { code: "409", status: 409, bodyCode: 1 },
  payloadTooLarge: { code: "413", status: 413, bodyCode: 1 },
  unboundLogin: { code: "417", status: 417, bodyCode: 1 },
  demoForbidden: { code: "423", status: 423, bodyCode: 1 },
  badCredentials: { code: "426", status: 426, bodyCode: 1 },
  badCaptcha: { code: "428", status: 428, bodyCode: 1 },
  rateLimited: { code: "429", status: 429, bodyCode: 1 },
  demoNoPermission: { code: "479", status: 479, bodyCode: 1 },
  business: { code: "1", status: 400, bodyCode: 1 },
  unavailable: { code: "503", status: 503, bodyCode: 1 },
  internal: { code: "500", status: 500, bodyCode: 1 },
} as const;

export type ErrorKind = keyof typeof ERROR_CATALOGUE;

/** Envelope codes: 0 success, 1 failure, 5 session expired. */
export const BODY_CODE = { ok: 0, error: 1, expired: 5 } as const;
