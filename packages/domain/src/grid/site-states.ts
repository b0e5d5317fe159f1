/**
 * A grid site's registration with the utility server, as the IEEE device centre shows it.
 * `pinMismatch`: the Registration's PIN differs from the installer's; all traffic for the site
 * stops until staff correct it (CSIP-AUS).
 */
export const GRID_REGISTRATION_STATES = {
  notRegistered: 0,
  registered: 1,
  pinMismatch: 2,
  refused: 3,
} as const;
export type GridRegistrationState = (typeof GRID_REGISTRATION_STATES)[keyof typeof GRID_REGISTRATION_STATES];

/** Which way a document went: answers to the console's reads, or its own writes. */
export const GRID_DIRECTIONS = { received: 1, sent: 2 } as const;
export type GridDirection = (typeof GRID_DIRECTIONS)[keyof typeof GRID_DIRECTIONS];

/** An event control (DERControl) or the program's fallback (DefaultDERControl). */
export const GRID_COMMAND_KINDS = { event: 1, default: 2 } as const;

/**
 * The centre's mode counts (spec §3 IEEE device): what a received control asks of the site.
 * Emergency: de-energise or disconnect. Pure PV: no export from the battery and no import (both
 * limits zero). Sell: an export limit above zero or a fixed export. Regular: everything else.
 */
export const GRID_COMMAND_MODES = { regular: 0, sell: 1, emergency: 2, purePv: 3 } as const;
export type GridCommandMode = (typeof GRID_COMMAND_MODES)[keyof typeof GRID_COMMAND_MODES];

/** Days the exchanged XML documents are kept. */
export const GRID_EXCHANGE_RETENTION_DAYS = 30;

/**
 * What became of one response the console posted to the utility (the centre's response trail):
 * accepted (a 2xx answer); not accepted and sent again since, with a later attempt accepted; or
 * not accepted yet — the console keeps posting it until the utility takes it (CSIP-AUS ALL-23).
 */
export const GRID_RESPONSE_OUTCOMES = { accepted: 1, resent: 2, retrying: 3 } as const;
export type GridResponseOutcome = (typeof GRID_RESPONSE_OUTCOMES)[keyof typeof GRID_RESPONSE_OUTCOMES];
