/**
 * IEEE 2030.5 resource shapes as TypeScript types. Field names are the schema's element and
 * attribute names, so a decoded document reads as the standard does; `xml.ts` knows which of them
 * are attributes, numbers, booleans, repeated or in the CSIP-AUS namespace.
 *
 * Types follow the schema: hexadecimal types (HexBinary*, mRID, LFDI) and the SFDI are strings,
 * integer types (UInt*, Int*, TimeType, VersionType…) are numbers, booleans are booleans.
 * Times (TimeType) are seconds since 1970-01-01 UTC.
 */

/** Resource: anything addressable. */
export interface Resource {
  href?: string;
}

/** Link: a reference to another resource. */
export interface Link {
  href: string;
}

/** ListLink: a reference to a list, with its size. */
export interface ListLink extends Link {
  all?: number;
}

/** List: a page of a list; `all` counts every member, `results` those on this page. */
export interface List extends Resource {
  all: number;
  results: number;
}

/** SubscribableList / SubscribableResource add `subscribable` (0 none, 1 non-conditional…). */
export interface Subscribable {
  subscribable?: number;
}

/** IdentifiedObject: mRID (HexBinary128, 32 hexadecimal digits), description, version. */
export interface IdentifiedObject extends Resource {
  mRID: string;
  description?: string;
  version?: number;
}

/** A value and its power-of-ten multiplier (ActivePower, ReactivePower, VoltageRMS, WattHour…). */
export interface ScaledValue {
  multiplier: number;
  value: number;
}

/** PowerFactor: displacement and its power-of-ten multiplier. */
export interface PowerFactor {
  displacement: number;
  multiplier: number;
}

/** DateTimeInterval. */
export interface DateTimeInterval {
  duration: number;
  start: number;
}

/** Time (`/tm`). */
export interface Time extends Resource {
  pollRate?: number;
  currentTime: number;
  dstEndTime: number;
  dstOffset: number;
  dstStartTime: number;
  localTime?: number;
  quality: number;
  tzOffset: number;
}

/** DeviceCapability (`/dcap`): the entry point of discovery. */
export interface DeviceCapability extends Resource {
  pollRate?: number;
  DERProgramListLink?: ListLink;
  ResponseSetListLink?: ListLink;
  TimeLink?: Link;
  EndDeviceListLink?: ListLink;
  MirrorUsagePointListLink?: ListLink;
  SelfDeviceLink?: Link;
}

/** Error: the body of a refused request. */
export interface SepError {
  maxRetryDuration?: number;
  reasonCode: number;
}

/** Error reason codes (IEEE 2030.5 Error.reasonCode). */
export const REASON_CODES = Object.freeze({
  invalidRequestFormat: 0,
  invalidRequestValues: 1,
  resourceLimitReached: 2,
  conditionalSubscriptionFieldNotSupported: 3,
  maximumRequestFrequencyExceeded: 4,
});
