import { problem, type RuleProblem } from "./rule-problem.ts";
import { checkTimePeriods } from "./time-periods.ts";

/** Prices are below this (in the tariff's currency per kWh), with at most this many decimals (spec §5/§9). */
export const PRICE_LIMIT = 100;
export const PRICE_MAX_DECIMALS = 7;

export interface TariffPeriod {
  start: string | null | undefined;
  end: string | null | undefined;
  /** Decimal text ("0.2515") or a number. */
  price: string | number | null | undefined;
}

export interface TariffInput {
  buy: readonly TariffPeriod[];
  sell: readonly TariffPeriod[];
}

const PRICE_TEXT = /^\d+(\.\d+)?$/;

/** Null when `price` is a valid price, else the message key of its problem. */
export function priceProblem(price: TariffPeriod["price"]): string | null {
  if (price === null || price === undefined || price === "") return "tariffs:priceRequired";
  const text = typeof price === "number" ? (Number.isFinite(price) ? String(price) : "x") : price.trim();
  // Numbers print in exponent form below 1e-6; such a price has more than 7 decimals anyway.
  if (!PRICE_TEXT.test(text)) return "tariffs:priceInvalid";
  if (Number(text) >= PRICE_LIMIT) return "tariffs:priceTooHigh";
  if ((text.split(".")[1] ?? "").length > PRICE_MAX_DECIMALS) return "tariffs:priceDecimals";
  return null;
}

/**
 * The electricity price rules of spec §5: every period has a start and end time, ends after it
 * starts, does not overlap another of its list, and the buy and the sell periods each cover
 * 00:00–23:59; every price is a number below 100 with at most 7 decimals.
 */
export function checkTariff(tariff: TariffInput): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const side of ["buy", "sell"] as const) {
    const periods = tariff[side];
    problems.push(...checkTimePeriods(periods, { field: side, coverDay: true }));
    periods.forEach((p, i) => {
      const key = priceProblem(p.price);
      if (key) problems.push(problem(`${side}.${i}.price`, key, { limit: PRICE_LIMIT, decimals: PRICE_MAX_DECIMALS }));
    });
  }
  return problems;
}
