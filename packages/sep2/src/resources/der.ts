import { GRID_EVENT_STATUSES } from "@ess/domain/grid/control-schedule.ts";
import type {
  DateTimeInterval,
  IdentifiedObject,
  Link,
  List,
  ListLink,
  PowerFactor,
  Resource,
  ScaledValue,
  Subscribable,
} from "./common.ts";

/** DER: one energy resource behind an EndDevice, with links to its four descriptions. */
export interface DER extends Resource, Subscribable {
  AssociatedDERProgramListLink?: ListLink;
  AssociatedUsagePointLink?: Link;
  CurrentDERProgramLink?: Link;
  DERAvailabilityLink?: Link;
  DERCapabilityLink?: Link;
  DERSettingsLink?: Link;
  DERStatusLink?: Link;
}

export interface DERList extends List {
  pollRate?: number;
  DER?: DER[];
}

/** DERCapability (nameplate ratings), with the CSIP-AUS extensions. */
export interface DERCapability extends Resource {
  /** HexBinary32 bitmap of DERControl modes supported. */
  modesSupported: string;
  rtgAbnormalCategory?: number;
  rtgMaxA?: ScaledValue;
  rtgMaxAh?: ScaledValue;
  rtgMaxChargeRateVA?: ScaledValue;
  rtgMaxChargeRateW?: ScaledValue;
  rtgMaxDischargeRateVA?: ScaledValue;
  rtgMaxDischargeRateW?: ScaledValue;
  rtgMaxV?: ScaledValue;
  rtgMaxVA?: ScaledValue;
  rtgMaxVar?: ScaledValue;
  rtgMaxVarNeg?: ScaledValue;
  rtgMaxW: ScaledValue;
  rtgMaxWh?: ScaledValue;
  rtgMinPFOverExcited?: PowerFactor;
  rtgMinPFUnderExcited?: PowerFactor;
  rtgMinV?: ScaledValue;
  rtgNormalCategory?: number;
  rtgOverExcitedPF?: PowerFactor;
  rtgOverExcitedW?: ScaledValue;
  rtgReactiveSusceptance?: ScaledValue;
  rtgUnderExcitedPF?: PowerFactor;
  rtgUnderExcitedW?: ScaledValue;
  rtgVNom?: ScaledValue;
  /** DERType (4 combined PV + storage, 80 storage…). */
  type: number;
  /** CSIP-AUS: HexBinary8 bitmap, bit0 ExpLimW, bit1 ImpLimW, bit2 GenLimW, bit3 LoadLimW. */
  doeModesSupported?: string;
  /** CSIP-AUS v1.3: HexBinary8 bitmap, bit0 opModStorageTargetW. */
  vppModesSupported?: string;
}

/** DERSettings (limits currently configured), with the CSIP-AUS extensions. */
export interface DERSettings extends Resource {
  modesEnabled?: string;
  setESDelay?: number;
  setESHighFreq?: number;
  setESHighVolt?: number;
  setESLowFreq?: number;
  setESLowVolt?: number;
  setESRampTms?: number;
  setESRandomDelay?: number;
  setGradW: number;
  setMaxA?: ScaledValue;
  setMaxAh?: ScaledValue;
  setMaxChargeRateVA?: ScaledValue;
  setMaxChargeRateW?: ScaledValue;
  setMaxDischargeRateVA?: ScaledValue;
  setMaxDischargeRateW?: ScaledValue;
  setMaxV?: ScaledValue;
  setMaxVA?: ScaledValue;
  setMaxVar?: ScaledValue;
  setMaxVarNeg?: ScaledValue;
  setMaxW: ScaledValue;
  setMaxWh?: ScaledValue;
  setMinPFOverExcited?: PowerFactor;
  setMinPFUnderExcited?: PowerFactor;
  setMinV?: ScaledValue;
  setSoftGradW?: number;
  setVNom?: ScaledValue;
  setVRef?: ScaledValue;
  setVRefOfs?: ScaledValue;
  updatedTime: number;
  /** CSIP-AUS. */
  doeModesEnabled?: string;
  /** CSIP-AUS v1.3. */
  vppModesEnabled?: string;
  /** CSIP-AUS v1.3: lowest stored energy the DER keeps. */
  setMinWh?: ScaledValue;
}

/** A status value with the time it was observed; `value` is hexadecimal for the connect bitmaps. */
export interface StatusValue<T> {
  dateTime: number;
  value: T;
}

/** DERStatus. */
export interface DERStatus extends Resource {
  /** HexBinary32 bitmap. */
  alarmStatus?: string;
  /** HexBinary8 bitmap: bit0 connected, bit1 available, bit2 operating, bit3 test, bit4 fault. */
  genConnectStatus?: StatusValue<string>;
  inverterStatus?: StatusValue<number>;
  localControlModeStatus?: StatusValue<number>;
  manufacturerStatus?: StatusValue<string>;
  operationalModeStatus?: StatusValue<number>;
  readingTime: number;
  stateOfChargeStatus?: StatusValue<number>;
  storageModeStatus?: StatusValue<number>;
  storConnectStatus?: StatusValue<string>;
}

/** DERAvailability. */
export interface DERAvailability extends Resource {
  availabilityDuration?: number;
  maxChargeDuration?: number;
  readingTime: number;
  reserveChargePercent?: number;
  reservePercent?: number;
  statVarAvail?: ScaledValue;
  statWAvail?: ScaledValue;
}

/** DERControlBase: the modes a control sets; the csipaus ones are CSIP-AUS's dynamic limits. */
export interface DERControlBase {
  opModConnect?: boolean;
  opModEnergize?: boolean;
  /** SignedPerCent, hundredths of a percent of setMaxW. */
  opModFixedW?: number;
  /** PerCent (hundredths) of setMaxW. */
  opModMaxLimW?: number;
  /** Hundredths of a second. */
  rampTms?: number;
  opModImpLimW?: ScaledValue;
  opModExpLimW?: ScaledValue;
  opModGenLimW?: ScaledValue;
  opModLoadLimW?: ScaledValue;
  /** CSIP-AUS v1.3. */
  opModStorageTargetW?: ScaledValue;
}

/** EventStatus.currentStatus values (kept in the domain, where the control schedule reads them). */
export const EVENT_STATUS = GRID_EVENT_STATUSES;

export interface EventStatus {
  currentStatus: number;
  dateTime: number;
  potentiallySuperseded: boolean;
  potentiallySupersededTime?: number;
  reason?: string;
}

/** DERControl: a scheduled event. */
export interface DERControl extends IdentifiedObject, Subscribable {
  replyTo?: string;
  /** HexBinary8 bitmap of the responses wanted (CSIP-AUS: 03). */
  responseRequired?: string;
  creationTime: number;
  EventStatus: EventStatus;
  interval: DateTimeInterval;
  randomizeDuration?: number;
  randomizeStart?: number;
  DERControlBase: DERControlBase;
  deviceCategory?: string;
}

export interface DERControlList extends List, Subscribable {
  DERControl?: DERControl[];
}

/** DefaultDERControl: what applies when no event is active (or communications are lost). */
export interface DefaultDERControl extends IdentifiedObject, Subscribable {
  DERControlBase: DERControlBase;
  setESDelay?: number;
  setESHighFreq?: number;
  setESHighVolt?: number;
  setESLowFreq?: number;
  setESLowVolt?: number;
  setESRampTms?: number;
  setESRandomDelay?: number;
  /** Hundredths of a percent of setMaxW per second. */
  setGradW?: number;
  setSoftGradW?: number;
}

/** DERProgram; lower primacy = higher priority. */
export interface DERProgram extends IdentifiedObject, Subscribable {
  ActiveDERControlListLink?: ListLink;
  DefaultDERControlLink?: Link;
  DERControlListLink?: ListLink;
  DERCurveListLink?: ListLink;
  primacy: number;
}

export interface DERProgramList extends List, Subscribable {
  pollRate?: number;
  DERProgram?: DERProgram[];
}
