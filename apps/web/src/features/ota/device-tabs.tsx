import { lazy } from "react";
import type { DeviceTab } from "../devices/details/tab-registry.ts";

/** OTA's tab on the device details page: the device's upgrade records. */
export const deviceTabs: DeviceTab[] = [
  {
    key: "upgrades",
    label: "ota:records",
    ns: ["ota"],
    order: 800,
    permission: "ota.view",
    component: lazy(() => import("./components/upgrades-tab.tsx")),
  },
];
