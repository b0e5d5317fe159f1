import { CATALOGUE_PAGES, isSettingsPage } from "@ess/domain";
import { lazy } from "react";
import type { DeviceTab } from "./details/tab-registry.ts";

/** The live page's own name (deviceLive:pages.<n>). */
const pageLabel = (page: number) => ["deviceLive:pages", page].join(".");
const pageTab = (page: number, product: "single" | "three", order: number): DeviceTab => ({
  key: `page-${page}`,
  label: pageLabel(page),
  ns: ["deviceLive"],
  order,
  permission: "device.param.read",
  visible: (d) => (d.phaseType === 2 ? "three" : "single") === product,
  component: lazy(async () => {
    const { default: Tab } = await import("./details/data-page-tab.tsx");
    return { default: (props) => <Tab {...props} page={page} /> };
  }),
});

/**
 * The details page's own tabs: information views, one data tab per live-data page of the product,
 * statistics, on/off-line log. Settings pages are not data tabs: they are the forms of "Device
 * settings" (one place each).
 */
export const deviceTabs: DeviceTab[] = [
  {
    key: "information",
    label: "devices:tabs.information",
    order: 10,
    permission: "device.telemetry.view",
    component: lazy(() => import("./details/information-tab.tsx")),
  },
  {
    key: "statistics",
    label: "devices:tabs.statistics",
    order: 20,
    permission: "device.telemetry.view",
    component: lazy(() => import("./details/statistics-tab.tsx")),
  },
  ...CATALOGUE_PAGES.filter((p) => !isSettingsPage(p.page)).map((p, i) => pageTab(p.page, p.product, 100 + i)),
  {
    key: "online-log",
    label: "devices:tabs.onlineLog",
    order: 900,
    permission: "device.telemetry.view",
    component: lazy(() => import("./details/online-log-tab.tsx")),
  },
];
