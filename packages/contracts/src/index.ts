export * from "./account-fields.ts";
export * from "./envelope.ts";
export * from "./list.ts";
export * from "./localised.ts";
export * from "./realtime/realtime.routes.ts";
export * from "./route.ts";
export * from "./routes/app-content.routes.ts";
export * from "./routes/auth.routes.ts";
export * from "./routes/cancellation.routes.ts";
export * from "./routes/captcha.routes.ts";
export * from "./routes/content.routes.ts";
export * from "./routes/device.routes.ts";
export * from "./routes/device-telemetry.routes.ts";
export * from "./routes/enduser.routes.ts";
export * from "./routes/error-log.routes.ts";
export * from "./routes/faq.routes.ts";
export * from "./routes/fault.routes.ts";
export * from "./routes/feedback.routes.ts";
export * from "./routes/firmware.routes.ts";
export * from "./routes/log.routes.ts";
export * from "./routes/menu.routes.ts";
export * from "./routes/message.routes.ts";
export * from "./routes/mobile.routes.ts";
export * from "./routes/org.routes.ts";
export * from "./routes/ota.routes.ts";
export * from "./routes/region.routes.ts";
export * from "./routes/role.routes.ts";
export * from "./routes/statistics.routes.ts";
export * from "./routes/system.routes.ts";
export * from "./routes/token.routes.ts";
export * from "./routes/user.routes.ts";
export * from "./schema-walk.ts";
export * from "./text.ts";
export * from "./validation.ts";

import { realtimeRoutes } from "./realtime/realtime.routes.ts";
import { appReadRoutes } from "./routes/app-content.routes.ts";
import { authRoutes } from "./routes/auth.routes.ts";
import { cancellationRoutes } from "./routes/cancellation.routes.ts";
import { captchaRoutes } from "./routes/captcha.routes.ts";
import { appContentRoutes, articleRoutes, bannerRoutes, mediaRoutes } from "./routes/content.routes.ts";
import { deviceRoutes } from "./routes/device.routes.ts";
import { deviceSettingsRoutes, selfCheckRoutes, visibilityRoutes } from "./routes/device-settings.routes.ts";
import { deviceTelemetryRoutes } from "./routes/device-telemetry.routes.ts";
import { endUserRoutes } from "./routes/enduser.routes.ts";
import { errorLogRoutes } from "./routes/error-log.routes.ts";
import { faqRoutes } from "./routes/faq.routes.ts";
import { alarmControlRoutes, alarmRoutes, faultRoutes } from "./routes/fault.routes.ts";
import { feedbackRoutes } from "./routes/feedback.routes.ts";
import { firmwareRoutes } from "./routes/firmware.routes.ts";
import { generatorRoutes } from "./routes/generator.routes.ts";
import { ieeeRoutes, powerGridRoutes } from "./routes/grid-centre.routes.ts";
import { logRoutes } from "./routes/log.routes.ts";
import { menuRoutes } from "./routes/menu.routes.ts";
import { appRoutes, inboxRoutes, messageRoutes } from "./routes/message.routes.ts";
import { mobileRoutes } from "./routes/mobile.routes.ts";
import { modeRoutes } from "./routes/mode.routes.ts";
import { orgRoutes } from "./routes/org.routes.ts";
import { otaRoutes } from "./routes/ota.routes.ts";
import { profileRoutes } from "./routes/profile.routes.ts";
import { referralRoutes } from "./routes/referral.routes.ts";
import { regionRoutes } from "./routes/region.routes.ts";
import { roleRoutes } from "./routes/role.routes.ts";
import { boardRoutes, statisticsRoutes } from "./routes/statistics.routes.ts";
import { systemRoutes } from "./routes/system.routes.ts";
import { tariffRoutes } from "./routes/tariff.routes.ts";
import { tokenRoutes } from "./routes/token.routes.ts";
import { userRoutes } from "./routes/user.routes.ts";

/**
 * Every HTTP route of the API, grouped by feature. A contract joins this registry together with
 * its handler: the route audit test fails on a registered contract without one.
 */
export const API = {
  auth: authRoutes,
  system: systemRoutes,
  token: tokenRoutes,
  menu: menuRoutes,
  errorLog: errorLogRoutes,
  captcha: captchaRoutes,
  mobile: mobileRoutes,
  realtime: realtimeRoutes,
  org: orgRoutes,
  endUser: endUserRoutes,
  user: userRoutes,
  role: roleRoutes,
  log: logRoutes,
  cancellation: cancellationRoutes,
  deviceTelemetry: deviceTelemetryRoutes,
  deviceSettings: deviceSettingsRoutes,
  registerVisibility: visibilityRoutes,
  selfCheck: selfCheckRoutes,
  tariff: tariffRoutes,
  generator: generatorRoutes,
  mode: modeRoutes,
  referral: referralRoutes,
  ieee: ieeeRoutes,
  powerGrid: powerGridRoutes,
  profile: profileRoutes,
  fault: faultRoutes,
  alarmControl: alarmControlRoutes,
  alarm: alarmRoutes,
  device: deviceRoutes,
  statistics: statisticsRoutes,
  board: boardRoutes,
  firmware: firmwareRoutes,
  ota: otaRoutes,
  faq: faqRoutes,
  region: regionRoutes,
  message: messageRoutes,
  inbox: inboxRoutes,
  feedback: feedbackRoutes,
  appInbox: { inbox: appRoutes.inbox, read: appRoutes.read },
  appFeedback: { submit: appRoutes.feedbackSubmit, page: appRoutes.feedbackPage },
  media: mediaRoutes,
  article: articleRoutes,
  banner: bannerRoutes,
  // The end users' app reads: published content, the FAQ, regions and the latest app version.
  appContent: { ...appReadRoutes, ...appContentRoutes },
} as const;
export * from "./device/index.ts";
export * from "./routes/device-settings.routes.ts";
export * from "./routes/generator.routes.ts";
export * from "./routes/grid-centre.routes.ts";
export * from "./routes/mode.routes.ts";
export * from "./routes/profile.routes.ts";
export * from "./routes/referral.routes.ts";
export * from "./routes/tariff.routes.ts";
