import type { PermissionId } from "../permissions/registry.ts";

/**
 * The default menu tree, seeded into every tenant (an item is seeded once: an administrator may
 * edit or delete it afterwards without the next start bringing it back). Labels are i18n
 * `menus:items.<key>` in every language. `component` is the page key of the console's page registry;
 * an item without children gets `/index` appended to its path by the console (spec §2).
 * A feature adds its branch here.
 */
export type DefaultMenuType = "left" | "top" | "button";

export interface DefaultMenu {
  key: string;
  parent: string | null;
  type: DefaultMenuType;
  path: string;
  component: string | null;
  /** An antd icon name. */
  icon: string | null;
  /** Shown only to callers holding it (null: every signed-in user). */
  permission: PermissionId | null;
  sort: number;
  keepAlive: boolean;
  /** Role codes that may see it (empty: any role). */
  roles: readonly string[];
}

const item = (
  key: string,
  parent: string | null,
  path: string,
  component: string | null,
  icon: string | null,
  permission: PermissionId | null,
  sort: number,
): DefaultMenu => ({ key, parent, type: "left", path, component, icon, permission, sort, keepAlive: false, roles: [] });

const button = (key: string, parent: string, permission: PermissionId, sort: number): DefaultMenu => ({
  key,
  parent,
  type: "button",
  path: "",
  component: null,
  icon: null,
  permission,
  sort,
  keepAlive: false,
  roles: [],
});

export const DEFAULT_MENUS: readonly DefaultMenu[] = [
  item("home", null, "/wel", "views/wel/index", "HomeOutlined", null, 1),
  { ...item("topHome", null, "/wel/index", null, "HomeOutlined", null, 1), type: "top" },
  { ...item("topInfo", null, "/info/index", null, "UserOutlined", null, 2), type: "top" },

  item("devices", null, "/device", null, "ThunderboltOutlined", null, 10),
  item("deviceList", "devices", "/device/list", "views/device/list/index", "UnorderedListOutlined", "device.view", 1),
  button("deviceListEdit", "deviceList", "device.edit", 1),
  button("deviceListDelete", "deviceList", "device.delete", 2),
  button("deviceListImport", "deviceList", "device.import", 3),
  button("deviceListExport", "deviceList", "device.export", 4),
  button("deviceListBind", "deviceList", "device.bind", 5),
  item("deviceBulk", "devices", "/device/bulk", "views/device/bulk/index", "SendOutlined", "device.param.bulk", 2),
  item("deviceModes", "devices", "/device/modes", "views/device/modes/index", "ScheduleOutlined", "mode.view", 3),
  button("deviceModesEdit", "deviceModes", "mode.edit", 1),
  item(
    "deviceDisplayConfig",
    "devices",
    "/device/settings-display",
    "views/device/settings-display/index",
    "EyeOutlined",
    "device.param.visibility",
    4,
  ),

  item("channel", null, "/channel", null, "ApartmentOutlined", null, 20),
  item("channelOrgs", "channel", "/channel/installer", "views/channel/installer/index", "TeamOutlined", "org.view", 1),
  button("channelOrgsEdit", "channelOrgs", "org.edit", 1),
  item("channelEndUsers", "channel", "/channel/enduser", "views/channel/enduser/index", "UserOutlined", "enduser.view", 2),
  button("channelEndUsersEdit", "channelEndUsers", "enduser.edit", 1),
  item("channelCancel", "channel", "/channel/cancel", "views/channel/cancel/index", "UserDeleteOutlined", "cancel.view", 3),
  button("channelCancelReview", "channelCancel", "cancel.review", 1),
  button("channelCancelDelete", "channelCancel", "cancel.delete", 2),
  item("channelStaff", "channel", "/channel/staff", "views/channel/staff/index", "TeamOutlined", "sys.user.view", 4),

  item("faults", null, "/fault", null, "AlertOutlined", null, 40),
  item("faultCurrent", "faults", "/fault/current", "views/fault/current/index", "AlertOutlined", "alarm.view", 1),
  button("faultHide", "faultCurrent", "alarm.hide", 1),
  item("faultHistory", "faults", "/fault/history", "views/fault/history/index", "FileTextOutlined", "alarm.view", 2),
  item("faultCatalogue", "faults", "/fault/info", "views/fault/info/index", "DatabaseOutlined", "fault.view", 3),
  button("faultCatalogueEdit", "faultCatalogue", "fault.edit", 1),
  item("faultControl", "faults", "/fault/control", "views/fault/control/index", "ToolOutlined", "fault.view", 4),
  item("faultNotice", "faults", "/fault/notice", "views/fault/notice/index", "SettingOutlined", "alarm.view", 5),
  item("ota", null, "/ota", null, "CloudOutlined", null, 60),
  item("otaVersions", "ota", "/ota/version", "views/ota/version/index", "AppstoreOutlined", "firmware.view", 1),
  button("otaVersionsEdit", "otaVersions", "firmware.edit", 1),
  item("otaCampaigns", "ota", "/ota/campaign", "views/ota/campaign/index", "ThunderboltOutlined", "ota.view", 2),
  button("otaCampaignsSend", "otaCampaigns", "ota.send", 1),
  item("content", null, "/content", null, "ReadOutlined", null, 70),
  item(
    "contentArticles",
    "content",
    "/content/article",
    "views/content/article/index",
    "FileTextOutlined",
    "content.article.view",
    3,
  ),
  button("contentArticlesEdit", "contentArticles", "content.article.edit", 1),
  item("contentBanners", "content", "/content/banner", "views/content/banner/index", "PictureOutlined", "content.banner.view", 4),
  button("contentBannersEdit", "contentBanners", "content.banner.edit", 1),

  item("australia", null, "/aus", null, "GlobalOutlined", null, 80),
  item("referralList", "australia", "/aus/referral", "views/aus/referral/index", "GiftOutlined", "referral.view", 1),
  button("referralListCashOut", "referralList", "referral.cashOut", 1),
  button("referralListExport", "referralList", "referral.export", 2),
  item("ieeeDevices", "australia", "/aus/ieee", "views/aus/ieee/index", "GlobalOutlined", "grid.view", 2),
  button("ieeeDevicesEdit", "ieeeDevices", "grid.edit", 1),
  button("ieeeDevicesExport", "ieeeDevices", "grid.export", 2),
  item(
    "contentFaqClasses",
    "content",
    "/content/faq-class",
    "views/content/faq-class/index",
    "FolderOutlined",
    "content.faq.view",
    5,
  ),
  button("contentFaqClassesEdit", "contentFaqClasses", "content.faq.edit", 1),
  item(
    "contentFaqProblems",
    "content",
    "/content/faq",
    "views/content/faq/index",
    "QuestionCircleOutlined",
    "content.faq.view",
    6,
  ),
  button("contentFaqProblemsEdit", "contentFaqProblems", "content.faq.edit", 1),
  item("contentRegions", "content", "/content/region", "views/content/region/index", "GlobalOutlined", "content.region.view", 7),
  button("contentRegionsEdit", "contentRegions", "content.region.edit", 1),
  item(
    "contentMessages",
    "content",
    "/content/message",
    "views/content/message/index",
    "MailOutlined",
    "content.message.view",
    1,
  ),
  button("contentMessagesEdit", "contentMessages", "content.message.edit", 1),
  item("contentFeedback", "content", "/content/feedback", "views/content/feedback/index", "CommentOutlined", "feedback.view", 2),
  button("contentFeedbackHandle", "contentFeedback", "feedback.handle", 1),
  button("contentFeedbackExport", "contentFeedback", "feedback.export", 2),
  item("inbox", null, "/inbox", "views/inbox/index", "BellOutlined", null, 85),

  item("system", null, "/admin", null, "SettingOutlined", null, 90),
  item("systemUsers", "system", "/admin/user", "views/admin/user/index", "UserOutlined", "sys.user.view", 1),
  button("systemUsersEdit", "systemUsers", "sys.user.edit", 1),
  item("systemRoles", "system", "/admin/role", "views/admin/role/index", "SafetyOutlined", "sys.role.view", 2),
  button("systemRolesEdit", "systemRoles", "sys.role.edit", 1),
  item("systemMenus", "system", "/admin/menu", "views/admin/menu/index", "MenuOutlined", "sys.menu.view", 3),
  button("systemMenusEdit", "systemMenus", "sys.menu.edit", 1),
  item("systemLog", "system", "/admin/log", "views/admin/log/index", "FileSearchOutlined", "sys.log.view", 4),
  button("systemLogDelete", "systemLog", "sys.log.delete", 1),
];
