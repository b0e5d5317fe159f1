import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/**
 * The pages a menu item can open, by the `component` path stored with the menu (the server's
 * default menu tree uses these keys). Each page loads on demand. Features add their pages here.
 */
export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  "views/wel/index": lazy(() => import("../features/home/pages/home.page.tsx")),
  "views/device/list/index": lazy(() => import("../features/devices/pages/device-list.page.tsx")),
  "views/device/bulk/index": lazy(() => import("../features/device-settings/pages/bulk-operation.page.tsx")),
  "views/device/modes/index": lazy(() => import("../features/device-settings/pages/modes.page.tsx")),
  "views/device/settings-display/index": lazy(() => import("../features/device-settings/pages/display-config.page.tsx")),
  "views/admin/user/index": lazy(() => import("../features/admin/pages/users.page.tsx")),
  "views/admin/role/index": lazy(() => import("../features/admin/pages/roles.page.tsx")),
  "views/admin/menu/index": lazy(() => import("../features/admin/pages/menus.page.tsx")),
  "views/admin/log/index": lazy(() => import("../features/admin/pages/logs.page.tsx")),
  "views/channel/installer/index": lazy(() => import("../features/channel/pages/organisations.page.tsx")),
  "views/channel/staff/index": lazy(() => import("../features/channel/pages/installer-users.page.tsx")),
  "views/channel/enduser/index": lazy(() => import("../features/channel/pages/end-users.page.tsx")),
  "views/fault/current/index": lazy(() => import("../features/faults/pages/current-alarms.page.tsx")),
  "views/fault/history/index": lazy(() => import("../features/faults/pages/alarm-history.page.tsx")),
  "views/fault/info/index": lazy(() => import("../features/faults/pages/fault-catalogue.page.tsx")),
  "views/fault/control/index": lazy(() => import("../features/faults/pages/alarm-control.page.tsx")),
  "views/fault/notice/index": lazy(() => import("../features/faults/pages/notice-preferences.page.tsx")),
  "views/channel/cancel/index": lazy(() => import("../features/channel/pages/cancellations.page.tsx")),
  "views/ota/version/index": lazy(() => import("../features/ota/pages/versions.page.tsx")),
  "views/ota/campaign/index": lazy(() => import("../features/ota/pages/campaigns.page.tsx")),
};
