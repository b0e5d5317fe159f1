import { lazy } from "react";
import type { DeviceTab } from "../devices/details/tab-registry.ts";

/** The device details' first tab: the live reading and page reads (what /device/live once showed on its own). */
export const deviceTabs: DeviceTab[] = [
  {
    key: "live",
    label: "deviceLive:title",
    ns: ["deviceLive"],
    order: 5,
    permission: "device.telemetry.view",
    component: lazy(() => import("./components/live-tab.tsx")),
  },
];
