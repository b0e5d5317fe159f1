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
  "views/aus/referral/index": lazy(() => import("../features/referral/pages/referrals.page.tsx")),
  "views/aus/ieee/index": lazy(() => import("../features/grid-centre/pages/ieee-devices.page.tsx")),
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
  "views/content/faq-class/index": lazy(() => import("../features/content/pages/faq-classes.page.tsx")),
  "views/content/faq/index": lazy(() => import("../features/content/pages/faq-problems.page.tsx")),
  "views/content/region/index": lazy(() => import("../features/content/pages/regions.page.tsx")),
  "views/content/message/index": lazy(() => import("../features/content/pages/messages.page.tsx")),
  "views/content/feedback/index": lazy(() => import("../features/content/pages/feedback.page.tsx")),
  "views/inbox/index": lazy(() => import("../features/content/pages/inbox.page.tsx")),
  "views/content/article/index": lazy(() => import("../features/content/pages/articles.page.tsx")),
  "views/content/banner/index": lazy(() => import("../features/content/pages/banners.page.tsx")),
};
