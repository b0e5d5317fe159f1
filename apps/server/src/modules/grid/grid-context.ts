import type { DeviceIdentity } from "@ess/domain/grid/hashed-identity.ts";
import type { DeviceCapability, EndDevice } from "@ess/sep2";
import type { DeviceFacts } from "./device-facts.ts";
import type { DeviceTake } from "./event-responses.ts";
import type { CommandRow, GridRepository, GridSiteRow, ParticipantDevice } from "./grid.repository.ts";
import type { GridFence } from "./grid-fence.ts";
import type { PollMarks } from "./poll-marks.ts";
import type { SepClient } from "./sep-client.ts";
import type { SharedReads } from "./shared-reads.ts";

/** What every part of the grid client shares: transport, storage, time and the aggregator's identity. */

/** Time as the client keeps it: injectable so tests run procedures on a compressed clock. */
export interface GridClock {
  /** Milliseconds since 1970 UTC. */
  now(): number;
  /** Waits `ms` of this clock's time; rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface GridLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface GridContext {
  http: SepClient;
  repo: GridRepository;
  /** The client's lease: what its writes and its requests to change something at the utility hold by. */
  fence: GridFence;
  /** Each site's last poll, written in batches. */
  marks: PollMarks;
  /** Reads one site may take from another's (the aggregator-wide MirrorUsagePointList). */
  shared: SharedReads;
  facts: DeviceFacts;
  /** Each site's control schedule (site-schedule), told when its stored controls change. */
  schedules: { changed(siteId: number): void };
  clock: GridClock;
  log: GridLog;
  aggregator: DeviceIdentity;
  pen: number;
  /** The utility's time (ms): the local clock corrected by the offset /tm gave. */
  serverNow(): number;
  /** The latest DeviceCapability. */
  dcap(): DeviceCapability;
}

/** One participating device as the client works with it. */
export interface Site {
  row: GridSiteRow;
  device: ParticipantDevice;
  /** Stops every loop of the site (PIN mismatch, device gone, client stopping). */
  stop: AbortController;
  endDevice?: EndDevice;
  endDeviceHref?: string;
  derHref?: string;
  /** DERProgramList hrefs from the site's function set assignments. */
  programLists: string[];
  /** The assignments have been read since the site started (so `programLists` is what is assigned). */
  assignmentsRead?: boolean;
  /** The programs and defaults the last complete program poll found (see site-controls retireUnlisted). */
  listedSignature?: string;
  /** A control was stored or retired during the program poll under way. */
  controlsChanged?: boolean;
  /** setGradW of the default control of highest primacy that carries one (the device's ramp; CSIP-AUS ALL-13). */
  gradW?: number;
  /** The NMI last written to the ConnectionPoint. */
  nmiWritten?: string;
  /** What was last written to each DER description (by href): its content and when (client clock, ms). */
  written?: Map<string, { signature: string; at: number }>;
  /** The site's commands by mRID as last stored, with what the utility said of each (see site-controls). */
  commands?: Map<string, { row: CommandRow; signature: string }>;
  /** How the site's device took each event applied to it, by the event's mRID (event-responses). */
  takes?: Map<string, DeviceTake>;
  /** Answers the site's events now, in turn with its program poll and event timer (set once its loops run). */
  settle?: () => Promise<void>;
  /** Location of the site and DER MirrorUsagePoints once created. */
  mups?: { site: string; der: string; postRate: number; createdAt?: number | undefined };
}

export const seconds = (ms: number) => Math.floor(ms / 1000);
