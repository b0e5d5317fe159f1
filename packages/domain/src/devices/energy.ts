/**
 * Figures the data board and the statistics derive from energy (kWh).
 * CO2 avoided per kWh generated: the grid-average emission factor the board uses (kg/kWh).
 */
export const CO2_KG_PER_KWH = 0.475;

/** The tariff used when a device has no user or its user has none (per kWh, in `currency`). */
export const DEFAULT_TARIFF = { currency: "EUR", buyPrice: 0.25, sellPrice: 0.08 } as const;

export interface EnergyFigures {
  pv: number;
  load: number;
  buy: number;
  sell: number;
}

export interface RevenueFigures {
  /** PV energy valued at the buying price (what it would have cost from the grid). */
  generation: number;
  /** PV energy used on site (generated minus sold) at the buying price. */
  selfUse: number;
  /** Energy sold at the selling price. */
  sales: number;
  /** Self-use plus sales. */
  total: number;
}

const money = (v: number) => Math.round(v * 100) / 100;

/** Revenue of an energy record under a flat tariff. */
export function revenueOf(e: EnergyFigures, tariff: { buyPrice: number; sellPrice: number }): RevenueFigures {
  const selfUsed = Math.max(e.pv - e.sell, 0);
  const selfUse = selfUsed * tariff.buyPrice;
  const sales = e.sell * tariff.sellPrice;
  return {
    generation: money(e.pv * tariff.buyPrice),
    selfUse: money(selfUse),
    sales: money(sales),
    total: money(selfUse + sales),
  };
}

/** Self-sufficiency (share of consumption not bought) and self-consumption (share of PV not sold), in %. */
export function ratiosOf(e: EnergyFigures) {
  const pct = (v: number) => Math.round(Math.min(Math.max(v, 0), 1) * 1000) / 10;
  return {
    selfSufficiency: e.load > 0 ? pct((e.load - e.buy) / e.load) : 0,
    selfConsumption: e.pv > 0 ? pct((e.pv - e.sell) / e.pv) : 0,
  };
}
