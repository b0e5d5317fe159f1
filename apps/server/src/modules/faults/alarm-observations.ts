import type { AlarmEvent } from "@ess/contracts";
import { type FaultLevel, type FaultSystemType, type FaultTrigger, faultTriggers } from "@ess/domain";

/** The device facts alarm detection needs. */
export interface AlarmDevice {
  id: number;
  tenantId: number;
  phaseType: 1 | 2 | null;
}

/** What a frame or an alarm event says about one condition of one device. */
export interface Observation {
  deviceId: number;
  tenantId: number;
  systemType: FaultSystemType;
  code: number;
  /** The device's own level for the code, used when the catalogue does not know it. */
  level: number | null;
  active: boolean;
  /** The device's time of it, as the device states it (a claim). */
  ts: number;
  /** When the console received it, on the console's clock. */
  receivedAt: number;
  /** The device marked it as sent late (kept while offline): history, not the present. */
  late: boolean;
}

/** A committed reading as alarm detection reads it: its alarm and status words. */
export interface FrameFacts {
  device: AlarmDevice;
  ts: number;
  receivedAt: number;
  buffered?: boolean;
  words?: ReadonlyMap<string, number>;
}

/** A stored alarm event. */
export interface EventFacts {
  device: AlarmDevice;
  event: AlarmEvent;
  receivedAt: number;
}

const TRIGGERS: Record<FaultSystemType, { code: number; level: FaultLevel; trigger: FaultTrigger }[]> = {
  1: faultTriggers(1),
  2: faultTriggers(2),
};

/**
 * The conditions a frame's alarm and status words show for every code its product can raise: the
 * active ones, and the clear ones that `clearFor` asks for (codes with an alarm open, which a clear
 * condition may close). A quiet device's frame thus makes no objects: this runs for every frame.
 */
export function observationsOfFrame(
  frame: FrameFacts,
  clearFor: (deviceId: number, code: number) => boolean = () => false,
): Observation[] {
  const words = frame.words;
  if (!words || words.size === 0) return [];
  let systemType: FaultSystemType = 1;
  for (const k of words.keys()) {
    if (k.startsWith("TP_")) {
      systemType = 2;
      break;
    }
  }
  const out: Observation[] = [];
  const { id: deviceId, tenantId } = frame.device;
  for (const { code, level, trigger } of TRIGGERS[systemType]) {
    const word = words.get(trigger.key);
    if (word === undefined) continue;
    const active = "bit" in trigger ? (word & (1 << trigger.bit)) !== 0 : word === 0;
    if (!active && !clearFor(deviceId, code)) continue;
    out.push({
      deviceId,
      tenantId,
      systemType,
      code,
      level,
      active,
      ts: frame.ts,
      receivedAt: frame.receivedAt,
      late: frame.buffered === true,
    });
  }
  return out;
}

/** An alarm event as an observation; an event without a code takes the code its bit stands for. */
export function observationOfEvent({ device, event: e, receivedAt }: EventFacts): Observation | null {
  const systemType: FaultSystemType = device.phaseType ?? (e.key.startsWith("TP_") ? 2 : 1);
  const code =
    e.code ??
    TRIGGERS[systemType].find(({ trigger }) => trigger.key === e.key && "bit" in trigger && trigger.bit === e.bit)?.code;
  if (code === undefined) return null;
  return {
    deviceId: device.id,
    tenantId: device.tenantId,
    systemType,
    code,
    level: e.level ?? null,
    active: e.state === "occur",
    ts: e.ts,
    receivedAt,
    late: e.buffered === true,
  };
}

/** Whether a frame shows any condition active (a frame that does not, of a device without open alarms, changes nothing). */
export const frameHasActive = (frame: FrameFacts) => observationsOfFrame(frame).length > 0;
