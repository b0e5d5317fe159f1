import { lazy } from "react";
import type { DeviceTab } from "../devices/details/tab-registry.ts";

/** Settings, commands, records, self-check and prices on the device details page. */
export const deviceTabs: DeviceTab[] = [
  {
    key: "settings",
    label: "shell:routes.deviceSettings",
    order: 30,
    permission: "device.param.read",
    component: lazy(() => import("./components/settings-tab.tsx")),
  },
];
