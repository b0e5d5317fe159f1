import type { DeviceIdentity } from "@ess/domain/grid/hashed-identity.ts";
import type { DeviceCapability, EndDevice } from "@ess/sep2";
import type { DeviceFacts } from "./device-facts.ts";
import type { GridRepository, GridSiteRow, ParticipantDevice } from "./grid.repository.ts";
import type { SepClient } from "./sep-client.ts";

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
  facts: DeviceFacts;
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
  /** The NMI last written to the ConnectionPoint. */
  nmiWritten?: string;
  /** Location of the site and DER MirrorUsagePoints once created. */
  mups?: { site: string; der: string; postRate: number };
}

export const seconds = (ms: number) => Math.floor(ms / 1000);
