import { randomBytes } from "node:crypto";
import type {
  DERAvailability,
  DERCapability,
  DERControlBase,
  DERSettings,
  DERStatus,
  DefaultDERControl,
  MirrorUsagePoint,
  Reading,
  ReadingType,
  Response,
} from "@ess/sep2";

/**
 * What the utility test server holds, in memory. Records are plain data so the control API can
 * hand them to a test (or a scenario engine) as they are; times are IEEE 2030.5 TimeType seconds on
 * the server's clock unless a field says otherwise.
 */

/** Poll and post rates the server publishes, in seconds (names as the conformance procedures' set-comms-rate). */
export interface CommsRates {
  dcapPoll: number;
  edevListPoll: number;
  fsaListPoll: number;
  derpListPoll: number;
  derListPoll: number;
  mupPost: number;
  edevPost: number;
}

/** The CSIP-AUS reference server's defaults. */
export const DEFAULT_RATES: Readonly<CommsRates> = Object.freeze({
  dcapPoll: 300,
  edevListPoll: 300,
  fsaListPoll: 300,
  derpListPoll: 60,
  derListPoll: 60,
  mupPost: 60,
  edevPost: 300,
});

/** The PIN the procedures' installer enters: 11111 and its check digit. */
export const DEFAULT_PIN = 111115;

/** The four descriptions a client writes for its DER. */
export interface DerRecord {
  capability?: DERCapability;
  settings?: DERSettings;
  status?: DERStatus;
  availability?: DERAvailability;
}

/** One write of a DER description, kept in order so a check can follow changes (connect, operate…). */
export interface DerWrite {
  /** Server time the write arrived, ms. */
  receivedAt: number;
  endDeviceId: number;
  kind: keyof DerRecord;
  value: NonNullable<DerRecord[keyof DerRecord]>;
}

export interface EndDeviceRecord {
  id: number;
  /** LFDI of the client certificate allowed to see this EndDevice (the aggregator's). */
  ownerLfdi: string;
  lfdi: string;
  sfdi: string;
  deviceCategory?: string;
  changedTime: number;
  enabled: boolean;
  registeredAt: number;
  pin: number;
  /** Registered by the client (POST /edev) rather than out of band. */
  inBand: boolean;
  connectionPointId?: string;
  /** One DER per EndDevice, id 1. */
  der: DerRecord;
  /** Function set assignments withdrawn from this EndDevice. */
  removedFsa: number[];
}

/** DefaultDERControl content a program carries (the server adds href, mRID and version). */
export type DefaultControlSettings = Omit<DefaultDERControl, "href" | "mRID" | "description" | "version" | "subscribable">;

export interface ProgramRecord {
  id: number;
  mRID: string;
  description: string;
  primacy: number;
  /** The function set assignment listing this program. */
  fsaId: number;
  defaultControl?: DefaultControlSettings & { mRID: string; version: number };
}

export interface ControlRecord {
  id: number;
  programId: number;
  mRID: string;
  description?: string;
  creationTime: number;
  start: number;
  duration: number;
  randomizeStart?: number;
  randomizeDuration?: number;
  base: DERControlBase;
  cancelledAt?: number;
  supersededAt?: number;
  /** EndDevices the control is for; absent = every EndDevice. */
  endDeviceIds?: number[];
}

export interface MupRecord {
  id: number;
  ownerLfdi: string;
  createdAt: number;
  /** As the client posted it, without its readings. */
  mirrorUsagePoint: MirrorUsagePoint;
}

export interface RecordedReading {
  /** Server time the reading arrived, ms. */
  receivedAt: number;
  mupId: number;
  mupMrid: string;
  deviceLFDI: string;
  roleFlags: string;
  mmrMrid: string;
  description?: string;
  readingType?: ReadingType;
  reading: Reading;
}

export interface RecordedResponse {
  id: number;
  receivedAt: number;
  endDeviceId: number;
  responseSet: string;
  response: Response;
}

/** A new 128-bit mRID (32 upper-case hexadecimal digits). */
export function newMrid(): string {
  return randomBytes(16).toString("hex").toUpperCase();
}

type IdKind = "endDevice" | "program" | "control" | "mup" | "response";

export class UtilityState {
  rates: CommsRates = { ...DEFAULT_RATES };
  registrationLinks = true;
  outage = false;
  readonly endDevices = new Map<number, EndDeviceRecord>();
  readonly programs = new Map<number, ProgramRecord>();
  readonly controls = new Map<number, ControlRecord>();
  readonly mups = new Map<number, MupRecord>();
  readonly readings: RecordedReading[] = [];
  readonly responses: RecordedResponse[] = [];
  readonly derWrites: DerWrite[] = [];
  readonly #firstSeen = new Map<string, number>();
  // Ids start at 1 as the reference server's do (procedures name /edev/1, /derp/1…).
  #ids: Record<IdKind, number> = { endDevice: 1, program: 1, control: 1, mup: 1, response: 1 };

  nextId(kind: IdKind): number {
    const id = this.#ids[kind];
    this.#ids[kind] = id + 1;
    return id;
  }

  /** When a client certificate was first seen (TimeType seconds), remembering `now` for a new one. */
  firstSeen(lfdi: string, now: number): number {
    const seen = this.#firstSeen.get(lfdi);
    if (seen !== undefined) return seen;
    this.#firstSeen.set(lfdi, now);
    return now;
  }

  /** The EndDevices a caller may see, in id order. */
  visibleEndDevices(callerLfdi: string): EndDeviceRecord[] {
    return [...this.endDevices.values()]
      .filter((d) => d.ownerLfdi === callerLfdi || d.lfdi === callerLfdi)
      .sort((a, b) => a.id - b.id);
  }

  endDeviceByLfdi(lfdi: string): EndDeviceRecord | undefined {
    return [...this.endDevices.values()].find((d) => d.lfdi === lfdi);
  }

  /** Programs in the order clients should weigh them: primacy, then id. */
  programList(fsaId?: number): ProgramRecord[] {
    return [...this.programs.values()]
      .filter((p) => fsaId === undefined || p.fsaId === fsaId)
      .sort((a, b) => a.primacy - b.primacy || a.id - b.id);
  }

  /** Function set assignment ids an EndDevice has: those its programs use, less any withdrawn. */
  fsaIds(device: EndDeviceRecord): number[] {
    const ids = new Set([...this.programs.values()].map((p) => p.fsaId));
    return [...ids].filter((id) => !device.removedFsa.includes(id)).sort((a, b) => a - b);
  }

  /**
   * The controls of a program an EndDevice sees at `now` (seconds): ended ones are gone (cancelled
   * ones too once their interval is over), ordered start ascending, newest creation first, then id
   * descending (the CSIP-AUS reference server's order).
   */
  controlList(programId: number, endDeviceId: number, now: number): ControlRecord[] {
    return [...this.controls.values()]
      .filter(
        (c) =>
          c.programId === programId &&
          (c.endDeviceIds === undefined || c.endDeviceIds.includes(endDeviceId)) &&
          now < c.start + c.duration,
      )
      .sort((a, b) => a.start - b.start || b.creationTime - a.creationTime || b.id - a.id);
  }
}
