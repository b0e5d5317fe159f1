/**
 * Where power goes in each system mode (spec §4, codes 0–7): how much the battery charges or
 * discharges and what the grid supplies or takes, given PV, load and the battery's limits.
 * Signs: battery > 0 discharges, grid > 0 imports.
 */
export interface DispatchInput {
  mode: number;
  pvW: number;
  loadW: number;
  soc: number;
  socMin: number;
  maxChargeW: number;
  maxDischargeW: number;
  /** Most the site may export, W (anti-backflow setting). */
  exportLimitW: number;
  /** Most the inverter may put out on its AC side (PV and discharge together), W; none when absent. */
  maxOutputW?: number;
}

export interface DispatchResult {
  pvW: number;
  loadW: number;
  batteryW: number;
  gridW: number;
}

export function dispatch(x: DispatchInput): DispatchResult {
  const canCharge = x.soc < 99.9;
  const canDischarge = x.soc > x.socMin + 0.05;
  const charge = (available: number) => (canCharge ? Math.min(Math.max(0, available), x.maxChargeW) : 0);
  const discharge = (needed: number) => (canDischarge ? Math.min(Math.max(0, needed), x.maxDischargeW) : 0);
  let pv = x.pvW;
  let load = x.loadW;
  let battery = 0;
  switch (x.mode) {
    case 0: {
      // Battery priority: PV fills the battery first, then the house; the battery serves the house at night.
      battery = -charge(pv);
      if (pv === 0) battery = discharge(load);
      break;
    }
    case 2:
    case 6:
      // Grid priority and PV only: the battery stays idle.
      break;
    case 3:
      // Full power feed: the battery discharges at its discharge current (down to its cut-off SOC)
      // beside PV; the house takes its share first and the rest is exported, within the output and
      // export limits below.
      battery = discharge(x.maxDischargeW);
      break;
    case 4: {
      // Emergency backup: keep the battery full, from PV and from the grid.
      battery = -charge(Math.max(pv - load, 0) + x.maxChargeW * 0.5);
      break;
    }
    case 5:
      // Backup without AC charging: only PV surplus fills the battery.
      battery = -charge(pv - load);
      break;
    case 7: {
      // Forced off-grid: no grid; surplus PV is curtailed, a deficit the battery cannot cover is load shed.
      const surplus = pv - load;
      if (surplus >= 0) {
        battery = -charge(surplus);
        pv = load - battery;
      } else {
        battery = discharge(-surplus);
        load = pv + battery;
      }
      return { pvW: pv, loadW: load, batteryW: battery, gridW: 0 };
    }
    default: {
      // Home-load priority (self-consumption): PV → house → battery → grid; deficits from battery, then grid.
      const surplus = pv - load;
      battery = surplus >= 0 ? -charge(surplus) : discharge(-surplus);
    }
  }
  const over = pv + battery - (x.maxOutputW ?? Number.POSITIVE_INFINITY);
  if (over > 0) {
    // Output capped (maximum output percentage): PV is curtailed first, then the discharge.
    const curtailed = Math.min(over, pv);
    pv -= curtailed;
    battery -= over - curtailed;
  }
  let grid = load - pv - battery;
  if (grid < -x.exportLimitW) {
    // Export limited: curtail PV to what the house, the battery and the limit take, then (feeding
    // from the battery) the discharge.
    const excess = -x.exportLimitW - grid;
    const curtailed = Math.min(excess, pv);
    pv -= curtailed;
    battery -= excess - curtailed;
    grid = -x.exportLimitW;
  }
  return { pvW: Math.max(0, pv), loadW: load, batteryW: battery, gridW: grid };
}
