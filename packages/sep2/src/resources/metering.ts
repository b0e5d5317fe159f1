import type { DateTimeInterval, IdentifiedObject, List, Resource } from "./common.ts";

/** ReadingType: what a reading measures (uom 38 W, 63 var, 29 V, 33 frequency; kind 37 power…). */
export interface ReadingType extends Resource {
  accumulationBehaviour?: number;
  commodity?: number;
  dataQualifier?: number;
  flowDirection?: number;
  intervalLength?: number;
  kind?: number;
  numberOfConsumptionBlocks?: number;
  numberOfTouTiers?: number;
  phase?: number;
  powerOfTenMultiplier?: number;
  subIntervalLength?: number;
  supplyLimit?: number;
  tieredConsumptionBlocks?: boolean;
  uom?: number;
}

/** Reading: one value over a period. */
export interface Reading extends Resource {
  consumptionBlock?: number;
  /** HexBinary16 bitmap. */
  qualityFlags?: string;
  timePeriod?: DateTimeInterval;
  touTier?: number;
  value?: number;
  /** HexBinary16. */
  localID?: string;
}

export interface MirrorReadingSet extends IdentifiedObject {
  timePeriod: DateTimeInterval;
  Reading?: Reading[];
}

/** MirrorMeterReading: a reading stream the client mirrors to the server. */
export interface MirrorMeterReading extends IdentifiedObject {
  lastUpdateTime?: number;
  MirrorReadingSet?: MirrorReadingSet[];
  nextUpdateTime?: number;
  Reading?: Reading;
  ReadingType?: ReadingType;
}

export interface MirrorMeterReadingList extends List {
  MirrorMeterReading?: MirrorMeterReading[];
}

/** MirrorUsagePoint: a site's or device's meter as mirrored by the client. */
export interface MirrorUsagePoint extends IdentifiedObject {
  /** HexBinary16 bitmap (bit0 mirror, bit1 premises aggregation point, bit3 DER…). */
  roleFlags: string;
  serviceCategoryKind: number;
  status: number;
  /** 40 hexadecimal digits. */
  deviceLFDI: string;
  MirrorMeterReading?: MirrorMeterReading[];
  postRate?: number;
}

export interface MirrorUsagePointList extends List {
  pollRate?: number;
  MirrorUsagePoint?: MirrorUsagePoint[];
}
