import {
  checkSettingChange,
  type DeviceSchedule,
  getRegister,
  readSchedule,
  SCHEDULE_LAYOUT,
  type ScheduleProduct,
  scheduleChanges,
  scheduleFieldOf,
  scheduleFields,
} from "@ess/domain";
import { useMemo, useState } from "react";
import { useMyRights, useSettingsPage } from "./use-device-settings.ts";

/**
 * A device's schedule read from its schedule page (and which part of it the device follows, a
 * setting of another page), and the user's edits: the registers the edits change and the rules
 * they break (shared with the server), each at its place in the model.
 */
export function useScheduleDraft(deviceId: number, product: ScheduleProduct) {
  const { page, typeRegister } = SCHEDULE_LAYOUT[product];
  const typePage = getRegister(typeRegister)?.page ?? null;
  const answer = useSettingsPage(deviceId, page);
  const typeAnswer = useSettingsPage(deviceId, typePage);
  const rights = useMyRights(page);
  const typeRights = useMyRights(typePage);
  const current = useMemo(
    () => ({ ...(answer.data?.values ?? {}), ...(typeAnswer.data?.values ?? {}) }),
    [answer.data, typeAnswer.data],
  );
  const reading = useMemo(() => readSchedule(product, answer.data?.values ?? {}), [product, answer.data]);
  // Edits belong to one answer of the device: a new answer (saved, read again) starts from it.
  const [draft, setDraft] = useState<{ at: number; schedule: DeviceSchedule } | null>(null);
  const [typeDraft, setTypeDraft] = useState<{ at: number; type: number } | null>(null);
  const schedule = draft && draft.at === answer.dataUpdatedAt ? draft.schedule : reading.ok ? reading.schedule : null;
  const deviceType = typeAnswer.data?.values[typeRegister];
  const type = typeDraft && typeDraft.at === typeAnswer.dataUpdatedAt ? typeDraft.type : deviceType;

  const changes = useMemo(() => {
    const registers = schedule ? scheduleChanges(product, current, schedule) : {};
    return typeof type === "number" && type !== deviceType ? { ...registers, [typeRegister]: type } : registers;
  }, [product, current, schedule, type, deviceType, typeRegister]);
  const problems = useMemo(() => checkSettingChange(product, current, changes), [product, current, changes]);
  const idsByPath = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const f of scheduleFields(product)) map.set(f.path, [...(map.get(f.path) ?? []), f.id]);
    return map;
  }, [product]);

  return {
    answer,
    reading,
    schedule,
    current,
    changes,
    problems,
    rightsReady: Boolean(rights.data),
    /** What the device follows (`scheduleType`), when the caller may see it and the device said. */
    type: typeRights.data?.[typeRegister]?.view && typeof type === "number" ? type : null,
    typeSettable: typeRights.data?.[typeRegister]?.set ?? false,
    edit: (next: DeviceSchedule) => setDraft({ at: answer.dataUpdatedAt, schedule: next }),
    editType: (next: number) => setTypeDraft({ at: typeAnswer.dataUpdatedAt, type: next }),
    /** Reads the device again: the schedule page and the page of what it follows. */
    readAgain: () => Promise.all([answer.refetch(), typePage === null ? null : typeAnswer.refetch()]),
    /** The model path a register's refusal belongs to. */
    pathOf: (registerId: string) => (registerId === typeRegister ? "type" : scheduleFieldOf(product, registerId)),
    settable: (path: string) => (idsByPath.get(path) ?? []).every((id) => rights.data?.[id]?.set ?? false),
    settableRegister: (id: string) => rights.data?.[id]?.set ?? false,
  };
}
