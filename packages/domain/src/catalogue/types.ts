/**
 * Shapes of the register catalogue. Rows are compact tuples in the generated files (one file per
 * family and page); `catalogue.ts` expands them to `Register` objects.
 */

/** Register families; `SP_KEY` are the single-phase fields addressed by semantic key, not by register. */
export const REGISTER_FAMILIES = [
  "TP_0X04",
  "TP_0X03",
  "HM_0X04",
  "HM_0X03",
  "HM6_0X04",
  "HM6_0X03",
  "hm6_0X03",
  "PROTOCOL_ADDR",
  "SP_KEY",
] as const;
export type RegisterFamily = (typeof REGISTER_FAMILIES)[number];

/**
 * Data types. Numbers: u16/s16 one register; u32/s32 two registers, high word first (big-endian
 * word order, value = hi × 65536 + lo, two's complement for s32). `enum` u16 code of an enumeration;
 * `flag` one bit (0/1); `bitfield` a word of alarm/state bits; `version` u16 shown as
 * major.minor (raw / 100); `string` ASCII, two characters per register, high byte first;
 * `timeHour`/`timeMinute`/`timeSecond`/`datePart` one part of a time or date split over registers;
 * `dateTime` three registers: year, month × 256 + day, hour × 256 + minute.
 */
export const DATA_TYPES = [
  "u16",
  "s16",
  "u32",
  "s32",
  "enum",
  "flag",
  "bitfield",
  "version",
  "string",
  "timeHour",
  "timeMinute",
  "timeSecond",
  "datePart",
  "dateTime",
] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** Audiences in the order of the audience code: back office (level 1), installer (level 2), consumer. */
export const AUDIENCES = ["backOffice", "installer", "consumer"] as const;
export type Audience = (typeof AUDIENCES)[number];
/** Per audience: `rw` view and set, `r-` view only, `--` hidden. */
export type AudienceRights = "rw" | "r-" | "--";
export type AudienceCode = `${AudienceRights}|${AudienceRights}|${AudienceRights}`;

/**
 * One generated row: id, first and last register address (null for single-phase keys), group,
 * data type, scale (engineering value = raw × scale), unit, min, max (engineering units), enum
 * name, audience code and, for single-phase keys shown on several pages, the other pages.
 */
export type RegisterRow =
  | readonly [string, number | null, number | null, string, DataType, number, string, number, number, string | null, AudienceCode]
  | readonly [
      string,
      number | null,
      number | null,
      string,
      DataType,
      number,
      string,
      number,
      number,
      string | null,
      AudienceCode,
      readonly number[],
    ];

export interface Register {
  id: string;
  family: RegisterFamily;
  /** `read` input registers (0X04), `readWrite` holding registers (0X03) and settable keys. */
  access: "read" | "readWrite";
  /** First and last register address (inclusive); null for single-phase semantic keys. */
  address: { start: number; end: number; words: number } | null;
  product: "single" | "three";
  /** Live page number and name of the original console; null when the id only carries a label. */
  page: number | null;
  pageName: string;
  alsoOnPages: readonly number[];
  group: string;
  type: DataType;
  scale: number;
  unit: string;
  /** Range of the engineering value (raw × scale); for `string` both are 0. */
  min: number;
  max: number;
  enum: string | null;
  view: Record<Audience, boolean>;
  set: Record<Audience, boolean>;
  /** i18n key, e.g. `registers:TP_0X04_25`. */
  labelKey: string;
}
