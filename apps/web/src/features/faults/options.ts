import { FAULT_CATEGORIES, FAULT_LEVELS, FAULT_SYSTEM_TYPES } from "@ess/domain";

/** Choices of the fault and alarm screens, labelled from the `faults` and `alarms` namespaces. */
export const levelOptions = { values: FAULT_LEVELS, labelKey: "alarms:levels" };
export const systemTypeOptions = { values: FAULT_SYSTEM_TYPES, labelKey: "alarms:systemTypes" };
export const statusOptions = { values: ["occur", "disappear"] as const, labelKey: "alarms:statuses" };
export const categoryOptions = { values: FAULT_CATEGORIES, labelKey: "faults:categories" };
export const removeActionOptions = { values: ["hide", "delete"] as const, labelKey: "alarms:remove" };
