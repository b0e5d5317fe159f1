import { randomInt } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";

/** Delivers SMS sign-in codes. Plug a gateway in through AppDeps.smsSender. */
export interface SmsSender {
  send(message: { to: string; code: string; text: string }): Promise<void>;
}

/** The default sender: writes the code to the server log (for development and closed installations). */
export function logSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    async send({ to, code }) {
      log.warn({ to, code }, "SMS sign-in code (no SMS gateway configured: the code is only written here)");
    },
  };
}

/** Turns a social login's authorisation code into the account id at that provider. */
export interface SocialProvider {
  /** The `state` part of `mobile=state@code`, e.g. "GITHUB". */
  readonly id: string;
  /** The external account id, or null when the code is not valid. */
  identify(code: string): Promise<string | null>;
}

export const SMS_CODE_TTL_S = 300;
export const SMS_MAX_ATTEMPTS = 5;
/** One code per number per minute; ten per address per hour. */
export const SMS_LIMITS = { perNumberWindowS: 60, perAddress: 10, perAddressWindowS: 3600 } as const;

export const smsCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");
export const phoneDigits = (phone: string) => phone.replace(/\D/g, "");
