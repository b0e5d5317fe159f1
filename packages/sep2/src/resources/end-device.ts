import type { IdentifiedObject, Link, List, ListLink, Resource, Subscribable } from "./common.ts";

/** EndDevice: a site (for an aggregator) or a device, with links to what hangs off it. */
export interface EndDevice extends Resource, Subscribable {
  ConfigurationLink?: Link;
  DERListLink?: ListLink;
  /** HexBinary32 bitmap of device categories. */
  deviceCategory?: string;
  DeviceInformationLink?: Link;
  DeviceStatusLink?: Link;
  /** 40 hexadecimal digits. */
  lFDI?: string;
  LogEventListLink?: ListLink;
  /** Decimal with its check digit; a string so no digit is ever lost. */
  sFDI: string;
  changedTime: number;
  enabled?: boolean;
  FunctionSetAssignmentsListLink?: ListLink;
  postRate?: number;
  RegistrationLink?: Link;
  SubscriptionListLink?: ListLink;
  /** CSIP-AUS extension. */
  ConnectionPointLink?: Link;
}

export interface EndDeviceList extends List, Subscribable {
  pollRate?: number;
  EndDevice?: EndDevice[];
}

/** Registration: when the EndDevice was registered and the PIN the installer must confirm. */
export interface Registration extends Resource {
  pollRate?: number;
  dateTimeRegistered: number;
  /** PINType (UInt32): six digits, the last a check digit. */
  pIN: number;
}

/** CSIP-AUS ConnectionPoint: the site's connection point id (the NMI in Australia). */
export interface ConnectionPoint extends Resource {
  connectionPointId?: string;
  /** The CSIP-AUS 1.1 name of the same value; still read from older clients. */
  id?: string;
}

/** FunctionSetAssignments: groups the programs an EndDevice must follow. */
export interface FunctionSetAssignments extends IdentifiedObject, Subscribable {
  DERProgramListLink?: ListLink;
  ResponseSetListLink?: ListLink;
  TimeLink?: Link;
}

export interface FunctionSetAssignmentsList extends List, Subscribable {
  pollRate?: number;
  FunctionSetAssignments?: FunctionSetAssignments[];
}

/** Response to an event (DERControlResponse has the same body). */
export interface Response extends Resource {
  createdDateTime?: number;
  /** 40 hexadecimal digits. */
  endDeviceLFDI: string;
  status?: number;
  /** The event's mRID. */
  subject: string;
}

export interface ResponseList extends List {
  Response?: Response[];
}

export interface ResponseSet extends IdentifiedObject {
  ResponseListLink?: ListLink;
}

export interface ResponseSetList extends List {
  ResponseSet?: ResponseSet[];
}

/** Response.status values (IEEE 2030.5 Table 27 as CSIP-AUS uses them). */
export const RESPONSE_STATUS = Object.freeze({
  received: 1,
  started: 2,
  completed: 3,
  optOut: 4,
  optIn: 5,
  cancelled: 6,
  superseded: 7,
  partialOptOut: 8,
  partialOptIn: 9,
  completedNoParticipation: 10,
  acknowledge: 11,
  noDisplay: 12,
  abortedServer: 13,
  abortedProgram: 14,
  notApplicable: 252,
  invalid: 253,
  expired: 254,
});
