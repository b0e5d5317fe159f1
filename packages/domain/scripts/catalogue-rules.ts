/**
 * Engineering defaults of the register catalogue: data type, scale, unit, range, group and the
 * audiences' visibility/settability, derived from a register's label, unit, enumeration and page.
 * Values for a 5–6 kW single-phase or a three-phase hybrid inverter with a high-voltage battery.
 * A row of catalogue-source/overrides.tsv wins over every rule here.
 */

export type RowFacts = {
  id: string;
  family: string;
  label: string;
  unit: string;
  enumName: string;
  control: string;
  settable: boolean;
  /** Registers the value spans (1 for single registers and single-phase keys). */
  words: number;
  product: "single" | "three";
  page: number | null;
  group: string;
};

export type Classified = {
  type: string;
  scale: number;
  unit: string;
  min: number;
  max: number;
  enum: string | null;
  /** back office | installer | consumer, each `rw`, `r-` or `--`. */
  audience: string;
  group: string;
  settable: boolean;
};

type EnumLike = { values: Map<number, unknown> };

const UNIT_ALIASES: Record<string, string> = {
  "℃": "°C",
  "mV / V": "mV",
  "kVar / kvar": "kvar",
  Kvar: "kvar",
  kVar: "kvar",
  VAR: "var",
  "KW / kW": "kW",
  KW: "kW",
  mAH: "mAh",
  AH: "Ah",
  "AH / Min": "Ah",
  "RH%": "%RH",
};

function inferUnit(label: string): string {
  const l = label.toLowerCase();
  if (/power factor|\bpf\b(?!-watt)/.test(l)) return "";
  if (label.includes("%")) return "%";
  if (/\bsoc\b|\bsoh\b|percentage|\bratio\b|proportion|rate\b.*%|efficiency/.test(l)) return "%";
  if (/power.*\brate$|\brate of .*power/.test(l)) return "%Wmax/s";
  if (/\(ms\)|protection.*\btime\b|limit time|\btime \d|recovery time/.test(l) && !/clock|system time/.test(l)) return "ms";
  if (/delay|wait(ing)? time|duration/.test(l)) return "s";
  if (
    /enable|switch|mode|command|type|selection|flag|status|state|address|baud|protocol|parity|stop bit|\bid\b|number of|count|control$|clock/.test(
      l,
    )
  )
    return "";
  // The last noun decides: "Power down voltage" is a voltage, "Overvoltage start power" a power.
  if (/(voltage|\bvolt)$/.test(l)) return "V";
  if (/\bpower$/.test(l) && !/reactive|apparent/.test(l)) return "W";
  if (/current$/.test(l)) return "A";
  if (/temperature/.test(l)) return "°C";
  if (/frequency/.test(l)) return "Hz";
  if (/reactive power/.test(l)) return "var";
  if (/apparent power/.test(l)) return "VA";
  if (/energy|generation|consumption|purchase|feed-in energy|electricity$|self use$/.test(l)) return "kWh";
  if (/\bpower\b/.test(l) && !/power (on|off)|power-on|power-off|power factor/.test(l)) return "W";
  if (/voltage|\bvolt\b|overvoltage|undervoltage/.test(l) && !/curve|volt-watt|volt-var/.test(l)) return "V";
  if (/current/.test(l)) return "A";
  return "";
}

type Shape = Pick<Classified, "type" | "scale" | "unit" | "min" | "max">;

function numeric(f: RowFacts, unit: string): Shape {
  const l = f.label.toLowerCase();
  const wide = f.words >= 2;
  const bidirectional =
    /battery|bms|\bct\b|meter|grid|external|total|combined|bus|buckboost|dc comp/.test(l) &&
    !/max|allow|limit|setting|protection|pv/.test(l);
  const setting = f.settable;
  switch (unit) {
    case "V":
      if (/cell/.test(l)) return { type: "u16", scale: 0.001, unit, min: 0, max: 5 };
      return { type: "u16", scale: 0.1, unit, min: 0, max: setting && /grid|reconnect/.test(l) ? 300 : 1000 };
    case "mV":
      if (/cell|pressure difference|balanc|equilibrium|difference/.test(l))
        return { type: "u16", scale: 1, unit, min: 0, max: 5000 };
      if (/dc comp/.test(l)) return { type: "s16", scale: 1, unit, min: -30000, max: 30000 };
      return { type: "u16", scale: 1, unit, min: 0, max: 65000 };
    case "A":
      if (setting) return { type: "u16", scale: 0.1, unit, min: 0, max: 200 };
      return bidirectional
        ? { type: "s16", scale: 0.1, unit, min: -300, max: 300 }
        : { type: "u16", scale: 0.1, unit, min: 0, max: 300 };
    case "mA":
      return /leak|insulation/.test(l)
        ? { type: "u16", scale: 1, unit, min: 0, max: 30000 }
        : { type: "s16", scale: 1, unit, min: -30000, max: 30000 };
    case "W":
    case "var": {
      const signed = !/pv|apparent|rated|charging power|start|stop/.test(l);
      if (wide)
        return signed
          ? { type: "s32", scale: 1, unit, min: -200000, max: 200000 }
          : { type: "u32", scale: 1, unit, min: 0, max: 200000 };
      return signed
        ? { type: "s16", scale: 1, unit, min: -30000, max: 30000 }
        : { type: "u16", scale: 1, unit, min: 0, max: 30000 };
    }
    case "kW":
    case "kvar":
      return wide
        ? { type: "s32", scale: 0.001, unit, min: -1000, max: 1000 }
        : { type: "s16", scale: 0.01, unit, min: -300, max: 300 };
    case "VA":
      return wide ? { type: "u32", scale: 1, unit, min: 0, max: 200000 } : { type: "u16", scale: 1, unit, min: 0, max: 30000 };
    case "kWh":
      if (wide || (f.family === "SP_KEY" && !/daily|day|today/.test(l)))
        return { type: "u32", scale: 0.1, unit, min: 0, max: 100000000 };
      return { type: "u16", scale: 0.1, unit, min: 0, max: 6500 };
    case "Wh":
      return { type: "u32", scale: 1, unit, min: 0, max: 1000000000 };
    case "Hz":
      return setting ? { type: "u16", scale: 0.01, unit, min: 45, max: 65 } : { type: "u16", scale: 0.01, unit, min: 0, max: 70 };
    case "°C":
      return { type: "s16", scale: 0.1, unit, min: -40, max: 150 };
    case "%":
      if (/backflow|anti-reverse|export limit|feed-in limit|anti-reflux/.test(l))
        return { type: "u16", scale: 1, unit, min: 0, max: 150 };
      return { type: "u16", scale: 1, unit, min: 0, max: 100 };
    case "%RH":
      return { type: "u16", scale: 0.1, unit, min: 0, max: 100 };
    case "%Wmax/s":
    case "%/s":
      return { type: "u16", scale: 0.01, unit, min: 0, max: 100 };
    case "ms":
      return { type: "u16", scale: 1, unit, min: 0, max: 60000 };
    case "s":
      return { type: "u16", scale: 1, unit, min: 0, max: 3600 };
    case "min":
      return { type: "u16", scale: 1, unit, min: 0, max: 1440 };
    case "h":
      return wide ? { type: "u32", scale: 1, unit, min: 0, max: 1000000 } : { type: "u16", scale: 1, unit, min: 0, max: 65535 };
    case "d":
      return { type: "u16", scale: 1, unit, min: 0, max: 65535 };
    case "V/Hz":
      return { type: "u16", scale: 0.01, unit, min: 0, max: 600 };
    case "kΩ":
    case "mΩ":
      return { type: "u16", scale: 1, unit, min: 0, max: 65535 };
    case "Ah":
      return { type: "u16", scale: 0.1, unit, min: 0, max: 6000 };
    case "mAh":
      return { type: "u16", scale: 10, unit, min: 0, max: 600000 };
    default:
      return { type: wide ? "u32" : "u16", scale: 1, unit, min: 0, max: wide ? 4294967295 : 65535 };
  }
}

function shapeOf(f: RowFacts, enums: Map<string, EnumLike>): Shape & { enum: string | null } {
  const l = f.label.toLowerCase();
  const none = { enum: null };
  if (f.enumName) {
    const values = [...(enums.get(f.enumName)?.values.keys() ?? [0])];
    return { type: "enum", scale: 1, unit: "", min: Math.min(...values), max: Math.max(...values), enum: f.enumName };
  }
  if (f.words > 2) return { type: "string", scale: 1, unit: "", min: 0, max: 0, ...none };
  let unit = UNIT_ALIASES[f.unit] ?? f.unit;
  if (unit === "VA / W") unit = /apparent/.test(l) ? "VA" : "W";
  if (unit === "VA / VAR") unit = /apparent/.test(l) ? "VA" : "var";
  if (!unit) {
    if (/version|\bver\b/.test(l)) return { type: "version", scale: 1, unit: "", min: 0, max: 65535, ...none };
    if (/serial number|\bsn\b/.test(l))
      return { type: f.words > 1 ? "string" : "u16", scale: 1, unit: "", min: 0, max: f.words > 1 ? 0 : 65535, ...none };
    if (/\byear\b|year\)|\dyear/.test(l) && !/years/.test(l))
      return { type: "datePart", scale: 1, unit: "", min: 2000, max: 2099, ...none };
    if (/\bmonth\b|\dmonth/.test(l)) return { type: "datePart", scale: 1, unit: "", min: 1, max: 12, ...none };
    if (/(?<!same )\bday$|\dday$|\bday\)|(date \d+|time) day\b/.test(l))
      return { type: "datePart", scale: 1, unit: "", min: 1, max: 31, ...none };
    if (/(hour|\bhr)\)?$/.test(l)) return { type: "timeHour", scale: 1, unit: "", min: 0, max: 23, ...none };
    if (/(\bmin|minute)\)?$/.test(l)) return { type: "timeMinute", scale: 1, unit: "", min: 0, max: 59, ...none };
    if (/\bseconds?\b/.test(l)) return { type: "timeSecond", scale: 1, unit: "", min: 0, max: 59, ...none };
    if (/^(q\d|quarter \d)( week)? (start|end)$/.test(l))
      return { type: "datePart", scale: 1, unit: "", min: /week/.test(l) ? 1 : 1, max: /week/.test(l) ? 7 : 12, ...none };
    if (/power factor|\bpf\b/.test(l) && !/enable|curve|mode/.test(l))
      return { type: "s16", scale: 0.001, unit: "", min: -1, max: 1, ...none };
    if (/\bbit \d|bit\d/.test(l) || /Bit\d+$/.test(f.id) || /^state \d- |^status - |^alarm status - |^enable settings - /.test(l))
      return { type: "flag", scale: 1, unit: "", min: 0, max: 1, ...none };
    if (/alarm|fault|status|state|flag|event|identifier|protection word|mask/.test(l) && !f.settable)
      return { type: "bitfield", scale: 1, unit: "", min: 0, max: f.words > 1 ? 4294967295 : 65535, ...none };
    if (f.settable && /enable|switch/.test(l)) return { type: "enum", scale: 1, unit: "", min: 0, max: 1, enum: "enableState" };
    if (f.settable && /^power-(on|off)$|factory reset|^empty |^clear /.test(l))
      return { type: "enum", scale: 1, unit: "", min: 0, max: 1, enum: "confirmAction1" };
    unit = inferUnit(f.label);
  }
  const shape = numeric(f, unit);
  // A value spread over two registers is 32 bits wide whatever its unit.
  if (f.words === 2 && (shape.type === "u16" || shape.type === "s16")) shape.type = shape.type === "u16" ? "u32" : "s32";
  return { ...shape, ...none };
}

function groupOf(f: RowFacts): string {
  if (f.group) return f.group;
  const l = f.label.toLowerCase();
  const byPage: Record<number, string> = { 43: "meter", 44: "bcu", 45: "bms", 46: "deviceInfo", 49: "schedule" };
  if (f.page !== null && byPage[f.page]) return byPage[f.page] ?? "";
  if (f.page === null && f.family === "hm6_0X03") return "schedule";
  const rules: [RegExp, string][] = [
    [/version|hardware|software|serial|identifier|display type/, "deviceInfo"],
    [/alarm|fault|protection event|lock event/, "alarm"],
    [/\bpv\d?\b|pv\d|photovoltaic/, "pv"],
    [/generator|\bgen\b/, "generator"],
    [/battery|\bbms\b|\bsoc\b|\bsoh\b|charg|discharg|\beod\b|\bdod\b/, "battery"],
    [/volt-watt|volt-var|freq-watt|pf-watt|var-watt|curve|lvrt|hvrt|reactive power control|power factor setting/, "gridSupport"],
    [/protection|reconnect|grid connection wait/, "gridProtection"],
    [/\bct\b|meter/, "meter"],
    [/485|baud|communication|protocol|parity|stop bit|\bip\b|subnet|gateway|wifi|4g/, "communication"],
    [/load|smart load/, "load"],
    [/inverter|line voltage/, "inverter"],
    [/grid/, "grid"],
    [/energy|generation|consumption|purchase|export|self-|sufficiency/, "energy"],
    [/temperature/, "temperature"],
    [/command|factory|upgrade|usb|time|self-check|self-test/, "system"],
  ];
  for (const [re, g] of rules) if (re.test(l)) return g;
  return "system";
}

/** Visible to the consumer among read-only values: operating data, not diagnostics. */
function consumerViews(f: RowFacts, group: string): boolean {
  const l = f.label.toLowerCase();
  if (
    /version|\bdsp|\bmcu|\bcpu|chip|identifier|dc comp|\biso\b|bus|leak|relay|zero ground|threshold|bit\b|word|mismatch|debug|calibr|custom|register|reserved|address|\bmos\b|llc|flying/.test(
      l,
    )
  )
    return false;
  if (f.page === 44 || f.page === 45 || f.page === 9) return /^(battery )?(soc|soh)\b|battery soc|battery soh/.test(l);
  if (["alarm", "deviceInfo", "gridProtection", "gridSupport", "communication"].includes(group)) return false;
  return /power|energy|generation|consumption|purchase|export|feed|sell|buy|\bsoc\b|\bsoh\b|state|status|mode|voltage|current|frequency|temperature|self-suff|ratio|run|time|yield|revenue|income|flow|cycle|grid connection|self-use|self use|quantity/.test(
    l,
  );
}

/** Settable by the consumer: everyday operation (system mode, schedules, export limit). */
function consumerSets(f: RowFacts, group: string): boolean {
  const l = f.label.toLowerCase();
  if (group === "schedule" || f.page === 11 || f.page === 49) return true;
  if (/system mode|current mode of the system|work mode|operating mode|operation mode/.test(l)) return true;
  if (
    /backflow|anti-reverse|export limit|feed-in limit|anti-reflux|charg(e|ing) (start|end|period|time)|discharg(e|ing) (start|end|period|time)|sell mode|use mode|buy mode/.test(
      l,
    )
  )
    return true;
  return false;
}

/** Settable by the installer: installation settings, not factory, firmware or engineering items. */
function installerSets(f: RowFacts): boolean {
  const l = f.label.toLowerCase();
  return !/factory|upgrade|firmware|debug|calibr|custom param|set quantity change|masking|user\/engineer|engineer|app startup|chip|special fault/.test(
    l,
  );
}

export function classify(f: RowFacts, enums: Map<string, EnumLike>, override?: Record<string, string>): Classified {
  const shape = shapeOf(f, enums);
  const group = groupOf(f);
  let audience: string;
  if (f.settable) {
    const consumer = consumerSets(f, group) ? "rw" : "--";
    audience = `rw|${installerSets(f) ? "rw" : "r-"}|${consumer}`;
  } else {
    audience = `r-|r-|${consumerViews(f, group) ? "r-" : "--"}`;
  }
  const out: Classified = { ...shape, audience, group, settable: f.settable };
  if (override) {
    for (const k of ["type", "unit", "audience", "group"] as const) if (override[k]) out[k] = override[k];
    // "-" clears a unit the rules inferred from a misleading label.
    if (override.unit === "-") out.unit = "";
    for (const k of ["scale", "min", "max"] as const) if (override[k]) out[k] = Number(override[k]);
    if (override.enum) out.enum = override.enum === "-" ? null : override.enum;
  }
  return out;
}
