import { isLfdi, sfdiFromLfdi } from "@ess/domain/grid/identity.ts";
import { checkNmi } from "@ess/domain/grid/nmi.ts";
import type { DERControlBase } from "@ess/sep2";
import { epochSeconds, type SimClock } from "./clock.ts";
import type { RequestFilter, RequestListener, RequestLog, RequestLogEntry } from "./request-log.ts";
import {
  type CommsRates,
  type ControlRecord,
  DEFAULT_PIN,
  type DefaultControlSettings,
  type DerWrite,
  type EndDeviceRecord,
  type MupRecord,
  newMrid,
  type ProgramRecord,
  type RecordedReading,
  type RecordedResponse,
  type UtilityState,
} from "./state.ts";

/**
 * What a test or a scenario engine does to the utility server: the actions of the conformance
 * procedures (set rates, register an EndDevice out of band, create programs and controls, cut
 * communications) and what their checks read (requests, readings, responses, DER descriptions).
 * The same object is served as JSON on the control port.
 */

export interface RegisterEndDeviceInput {
  /** The EndDevice's LFDI (40 hexadecimal digits). */
  lfdi: string;
  /** Defaults to the SFDI derived from the LFDI. */
  sfdi?: string;
  /** LFDI of the aggregator whose certificate may see it (default: the device itself, a direct client). */
  aggregatorLfdi?: string;
  /** Registration PIN, six digits with the check digit (default 111115). */
  pin?: number;
  /** The site's NMI, written to its ConnectionPoint. */
  nmi?: string;
  deviceCategory?: string;
}

export interface ProgramInput {
  primacy: number;
  /** Function set assignment listing the program (default 1). */
  fsaId?: number;
  description?: string;
  mRID?: string;
}

export interface ControlInput {
  programId: number;
  /** Start, TimeType seconds on the server's clock. */
  start: number;
  /** Seconds. */
  duration: number;
  base: DERControlBase;
  randomizeStart?: number;
  randomizeDuration?: number;
  mRID?: string;
  description?: string;
  /** EndDevices the control is for (default all). */
  endDeviceIds?: number[];
}

export interface UtilityControl {
  readonly clock: SimClock;
  /** Server time, TimeType seconds. */
  now(): number;
  rates(): CommsRates;
  setRates(rates: Partial<CommsRates>): CommsRates;
  registerEndDevice(input: RegisterEndDeviceInput): EndDeviceRecord;
  endDevices(): EndDeviceRecord[];
  /** Whether EndDevices carry a RegistrationLink (and /rg answers). */
  setRegistrationLinks(enabled: boolean): void;
  /** Withdraws a function set assignment from an EndDevice (its programs disappear for it). */
  removeFunctionSetAssignment(endDeviceId: number, fsaId: number): void;
  createProgram(input: ProgramInput): ProgramRecord;
  programs(): ProgramRecord[];
  /** Sets (or replaces) a program's DefaultDERControl; each change is a new version. */
  setDefaultControl(programId: number, settings: DefaultControlSettings): void;
  /** Withdraws a program's DefaultDERControl (its link goes, the resource answers 404). */
  removeDefaultControl(programId: number): void;
  createControl(input: ControlInput): ControlRecord;
  controls(): ControlRecord[];
  cancelControl(controlId: number): void;
  /**
   * Cancels every control not yet over (in force now or still to come), as the procedures'
   * cancel-active-der-controls does; returns how many.
   */
  cancelActiveControls(): number;
  /** While on, every request is answered HTTP 500. */
  setOutage(on: boolean): void;
  requests(filter?: RequestFilter): RequestLogEntry[];
  onRequest(listener: RequestListener): () => void;
  readings(): RecordedReading[];
  /** Every DER description written, in arrival order. */
  derWrites(): DerWrite[];
  responses(): RecordedResponse[];
  /** The statuses answered for control `subject` (by one EndDevice, when given), in order. */
  statusesOf(subject: string, endDeviceLfdi?: string): number[];
  mirrorUsagePoints(): MupRecord[];
}

/**
 * A new control supersedes the controls of its program that it overlaps in time, for the same
 * EndDevices, that are not over (as the reference server does: one program holds one control at a
 * time): they are listed as superseded from now, and the client answers them so (7).
 */
function supersedeOverlapped(state: UtilityState, control: ControlRecord): void {
  const end = control.start + control.duration;
  const sameDevices = (other: ControlRecord) =>
    !control.endDeviceIds || !other.endDeviceIds || other.endDeviceIds.some((id) => control.endDeviceIds?.includes(id));
  for (const other of state.controls.values()) {
    if (other.programId !== control.programId || other.cancelledAt !== undefined || other.supersededAt !== undefined) continue;
    const otherEnd = other.start + other.duration;
    if (otherEnd <= control.creationTime || other.start >= end || otherEnd <= control.start || !sameDevices(other)) continue;
    other.supersededAt = control.creationTime;
  }
}

function requireProgram(state: UtilityState, id: number): ProgramRecord {
  const program = state.programs.get(id);
  if (!program) throw new RangeError(`No program ${id}`);
  return program;
}

export function createControl(state: UtilityState, log: RequestLog, clock: SimClock): UtilityControl {
  const now = () => epochSeconds(clock);
  const clone = <T>(value: T): T => structuredClone(value);
  return {
    clock,
    now,
    rates: () => ({ ...state.rates }),
    setRates(rates) {
      for (const [key, value] of Object.entries(rates)) {
        if (!(key in state.rates)) throw new RangeError(`Unknown rate ${key}`);
        if (!Number.isInteger(value) || (value as number) < 1) throw new RangeError(`${key} is a whole number of seconds`);
      }
      state.rates = { ...state.rates, ...rates };
      return { ...state.rates };
    },
    registerEndDevice(input) {
      const lfdi = input.lfdi.toUpperCase();
      if (!isLfdi(lfdi)) throw new RangeError("An LFDI has 40 hexadecimal digits");
      if (state.endDeviceByLfdi(lfdi)) throw new RangeError(`An EndDevice with LFDI ${lfdi} exists`);
      if (input.nmi !== undefined && !checkNmi(input.nmi).ok) throw new RangeError(`Not a valid NMI: ${input.nmi}`);
      const record: EndDeviceRecord = {
        id: state.nextId("endDevice"),
        ownerLfdi: (input.aggregatorLfdi ?? lfdi).toUpperCase(),
        lfdi,
        sfdi: input.sfdi ?? sfdiFromLfdi(lfdi),
        deviceCategory: input.deviceCategory,
        changedTime: now(),
        enabled: true,
        registeredAt: now(),
        pin: input.pin ?? DEFAULT_PIN,
        inBand: false,
        connectionPointId: input.nmi,
        der: {},
        removedFsa: [],
      };
      state.endDevices.set(record.id, record);
      return clone(record);
    },
    endDevices: () => clone([...state.endDevices.values()]),
    setRegistrationLinks(enabled) {
      state.registrationLinks = enabled;
    },
    removeFunctionSetAssignment(endDeviceId, fsaId) {
      const device = state.endDevices.get(endDeviceId);
      if (!device) throw new RangeError(`No EndDevice ${endDeviceId}`);
      if (!device.removedFsa.includes(fsaId)) device.removedFsa.push(fsaId);
    },
    createProgram(input) {
      const id = state.nextId("program");
      const program: ProgramRecord = {
        id,
        mRID: input.mRID ?? newMrid(),
        description: input.description ?? `Program ${id}`,
        primacy: input.primacy,
        fsaId: input.fsaId ?? 1,
      };
      state.programs.set(id, program);
      return clone(program);
    },
    programs: () => clone(state.programList()),
    setDefaultControl(programId, settings) {
      const program = requireProgram(state, programId);
      const previous = program.defaultControl;
      program.defaultControl = {
        ...clone(settings),
        mRID: previous?.mRID ?? newMrid(),
        version: previous ? previous.version + 1 : 0,
      };
    },
    removeDefaultControl(programId) {
      delete requireProgram(state, programId).defaultControl;
    },
    createControl(input) {
      requireProgram(state, input.programId);
      if (!Number.isInteger(input.start) || !Number.isInteger(input.duration) || input.duration < 1)
        throw new RangeError("A control's start and duration are whole seconds");
      const control: ControlRecord = {
        ...clone(input),
        id: state.nextId("control"),
        mRID: input.mRID ?? newMrid(),
        creationTime: now(),
      };
      supersedeOverlapped(state, control);
      state.controls.set(control.id, control);
      return clone(control);
    },
    controls: () => clone([...state.controls.values()]),
    cancelControl(controlId) {
      const control = state.controls.get(controlId);
      if (!control) throw new RangeError(`No control ${controlId}`);
      control.cancelledAt ??= now();
    },
    cancelActiveControls() {
      const t = now();
      let count = 0;
      for (const control of state.controls.values()) {
        if (control.cancelledAt === undefined && control.supersededAt === undefined && t < control.start + control.duration) {
          control.cancelledAt = t;
          count++;
        }
      }
      return count;
    },
    setOutage(on) {
      state.outage = on;
    },
    requests: (filter) => log.entries(filter),
    onRequest: (listener) => log.subscribe(listener),
    readings: () => clone(state.readings),
    derWrites: () => clone(state.derWrites),
    responses: () => clone(state.responses),
    statusesOf: (subject, endDeviceLfdi) =>
      state.responses
        .filter(
          (r) => r.response.subject === subject && (endDeviceLfdi === undefined || r.response.endDeviceLFDI === endDeviceLfdi),
        )
        .map((r) => r.response.status as number),
    mirrorUsagePoints: () => clone([...state.mups.values()]),
  };
}
