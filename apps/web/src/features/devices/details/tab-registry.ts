import type { DeviceLive, DeviceRecord } from "@ess/contracts";
import type { PermissionId } from "@ess/domain";
import type { ComponentType, LazyExoticComponent } from "react";

/** What a tab of the device details page is given. */
export interface DeviceTabProps {
  device: DeviceRecord;
  /** The live state (online status, newest key quantities), kept current by the gateway. */
  live: DeviceLive | undefined;
}

/**
 * One tab of the device details page. A feature adds tabs by exporting `deviceTabs` from a file
 * named `features/<feature>/device-tabs.ts(x)`: the page collects them all, so settings, faults or
 * upgrade records appear without editing the page.
 */
export interface DeviceTab {
  key: string;
  /** i18n key of the tab's label (with its namespace). */
  label: string;
  /** Position among the tabs (ascending). */
  order: number;
  /** i18n namespaces the tab's label needs. */
  ns?: string[];
  /** Shown only to holders of this permission. */
  permission?: PermissionId;
  /** Shown only for devices this holds for (e.g. three-phase only). */
  visible?: (device: DeviceRecord) => boolean;
  /** Loaded when the tab is first opened. */
  component: LazyExoticComponent<ComponentType<DeviceTabProps>>;
}

const modules = import.meta.glob<{ deviceTabs: DeviceTab[] }>("../../*/device-tabs.{ts,tsx}", { eager: true });

/** Every registered tab, in order. */
export const DEVICE_TABS: readonly DeviceTab[] = Object.values(modules)
  .flatMap((m) => m.deviceTabs)
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
