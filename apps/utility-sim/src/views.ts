import {
  type DER,
  type DERControl,
  type DERProgram,
  type DefaultDERControl,
  type DeviceCapability,
  type EndDevice,
  EVENT_STATUS,
  type FunctionSetAssignments,
  type Registration,
  type Time,
} from "@ess/sep2";
import type { ControlRecord, EndDeviceRecord, ProgramRecord, UtilityState } from "./state.ts";

/**
 * The IEEE 2030.5 documents the server answers with, built from its records. Fields are listed in
 * the schema's sequence order so the documents validate. Paths follow the CSIP-AUS reference
 * server's (bsgip/envoy) layout, which the conformance procedures name.
 */

/** The caller's own EndDevice: an aggregator's view of itself (id 0), listed first. */
export const AGGREGATOR_END_DEVICE_ID = 0;
/** The one DER of every EndDevice. */
export const DER_ID = 1;
/** The response set DERControl responses go to. */
export const SITE_CONTROL_SET = "site_control";
/** Response sets the server offers. */
export const RESPONSE_SETS = [SITE_CONTROL_SET, "price"] as const;

export const edevPath = (id: number) => `/edev/${id}`;
export const derPath = (id: number) => `${edevPath(id)}/der/${DER_ID}`;
export const programPath = (edev: number, program: number) => `${edevPath(edev)}/derp/${program}`;
export const responsesPath = (edev: number, set: string) => `${edevPath(edev)}/rsps/${set}/rsp`;

export function deviceCapability(state: UtilityState, endDeviceCount: number, mupCount: number): DeviceCapability {
  return {
    href: "/dcap",
    pollRate: state.rates.dcapPoll,
    TimeLink: { href: "/tm" },
    EndDeviceListLink: { href: "/edev", all: endDeviceCount },
    MirrorUsagePointListLink: { href: "/mup", all: mupCount },
  };
}

export interface TimeZone {
  /** Standard offset from UTC in seconds (AEST +10 h = 36000). */
  tzOffset: number;
  /** Daylight saving offset in seconds while in effect; 0 where there is none. */
  dstOffset: number;
}

export function time(now: number, zone: TimeZone): Time {
  // No DST window is modelled: start and end are the same instant (the schema's way of saying none).
  return {
    href: "/tm",
    currentTime: now,
    dstEndTime: 0,
    dstOffset: zone.dstOffset,
    dstStartTime: 0,
    localTime: now + zone.tzOffset,
    quality: 4,
    tzOffset: zone.tzOffset,
  };
}

/** The aggregator's own EndDevice; it changed when the server first saw its certificate. */
export function aggregatorEndDevice(lfdi: string, sfdi: string, firstSeen: number): EndDevice {
  return { href: edevPath(AGGREGATOR_END_DEVICE_ID), lFDI: lfdi, sFDI: sfdi, changedTime: firstSeen, enabled: true };
}

export function endDevice(state: UtilityState, record: EndDeviceRecord): EndDevice {
  const base = edevPath(record.id);
  return {
    href: base,
    DERListLink: { href: `${base}/der`, all: 1 },
    deviceCategory: record.deviceCategory,
    lFDI: record.lfdi,
    sFDI: record.sfdi,
    changedTime: record.changedTime,
    enabled: record.enabled,
    FunctionSetAssignmentsListLink: { href: `${base}/fsa`, all: state.fsaIds(record).length },
    postRate: state.rates.edevPost,
    RegistrationLink: state.registrationLinks ? { href: `${base}/rg` } : undefined,
    ConnectionPointLink: { href: `${base}/cp` },
  };
}

export function registration(record: EndDeviceRecord): Registration {
  return { href: `${edevPath(record.id)}/rg`, dateTimeRegistered: record.registeredAt, pIN: record.pin };
}

export function der(record: EndDeviceRecord): DER {
  const base = derPath(record.id);
  return {
    href: base,
    DERAvailabilityLink: { href: `${base}/dera` },
    DERCapabilityLink: { href: `${base}/dercap` },
    DERSettingsLink: { href: `${base}/derg` },
    DERStatusLink: { href: `${base}/ders` },
  };
}

export function functionSetAssignments(state: UtilityState, record: EndDeviceRecord, fsaId: number): FunctionSetAssignments {
  const base = `${edevPath(record.id)}/fsa/${fsaId}`;
  // The mRID is stable per assignment: its id in hexadecimal, padded to 128 bits.
  return {
    href: base,
    mRID: fsaId.toString(16).toUpperCase().padStart(32, "0"),
    description: `Function set assignment ${fsaId}`,
    DERProgramListLink: { href: `${base}/derp`, all: state.programList(fsaId).length },
    TimeLink: { href: "/tm" },
  };
}

export function derProgram(state: UtilityState, edev: number, program: ProgramRecord, now: number): DERProgram {
  const base = programPath(edev, program.id);
  const controls = state.controlList(program.id, edev, now);
  return {
    href: base,
    mRID: program.mRID,
    description: program.description,
    ActiveDERControlListLink: { href: `${base}/actderc`, all: controls.filter((c) => isActive(c, now)).length },
    DefaultDERControlLink: program.defaultControl ? { href: `${base}/dderc` } : undefined,
    DERControlListLink: { href: `${base}/derc`, all: controls.length },
    primacy: program.primacy,
  };
}

export function defaultDerControl(edev: number, program: ProgramRecord): DefaultDERControl | undefined {
  const settings = program.defaultControl;
  if (!settings) return undefined;
  const { mRID, version, DERControlBase, ...rest } = settings;
  return {
    href: `${programPath(edev, program.id)}/dderc`,
    mRID,
    description: `${program.description} default`,
    version,
    DERControlBase,
    ...rest,
  };
}

export function isActive(control: ControlRecord, now: number): boolean {
  return (
    control.cancelledAt === undefined &&
    control.supersededAt === undefined &&
    control.start <= now &&
    now < control.start + control.duration
  );
}

function eventStatus(control: ControlRecord, now: number): DERControl["EventStatus"] {
  if (control.cancelledAt !== undefined)
    return { currentStatus: EVENT_STATUS.cancelled, dateTime: control.cancelledAt, potentiallySuperseded: false };
  if (control.supersededAt !== undefined)
    return { currentStatus: EVENT_STATUS.superseded, dateTime: control.supersededAt, potentiallySuperseded: true };
  if (isActive(control, now))
    return { currentStatus: EVENT_STATUS.active, dateTime: control.start, potentiallySuperseded: false };
  return { currentStatus: EVENT_STATUS.scheduled, dateTime: control.creationTime, potentiallySuperseded: false };
}

export function derControl(edev: number, control: ControlRecord, now: number): DERControl {
  return {
    href: `${programPath(edev, control.programId)}/derc/${control.id}`,
    replyTo: responsesPath(edev, SITE_CONTROL_SET),
    // Bit 0 "received" and bit 1 "specific response" wanted, as the reference server asks.
    responseRequired: "03",
    mRID: control.mRID,
    description: control.description,
    version: 0,
    creationTime: control.creationTime,
    EventStatus: eventStatus(control, now),
    interval: { duration: control.duration, start: control.start },
    randomizeDuration: control.randomizeDuration,
    randomizeStart: control.randomizeStart,
    DERControlBase: control.base,
  };
}
