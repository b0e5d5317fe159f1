export * from "./envelope.ts";
export * from "./list.ts";
export * from "./realtime/realtime.routes.ts";
export * from "./route.ts";
export * from "./routes/auth.routes.ts";
export * from "./routes/captcha.routes.ts";
export * from "./routes/device-telemetry.routes.ts";
export * from "./routes/error-log.routes.ts";
export * from "./routes/menu.routes.ts";
export * from "./routes/mobile.routes.ts";
export * from "./routes/system.routes.ts";
export * from "./routes/token.routes.ts";
export * from "./validation.ts";

import { realtimeRoutes } from "./realtime/realtime.routes.ts";
import { authRoutes } from "./routes/auth.routes.ts";
import { captchaRoutes } from "./routes/captcha.routes.ts";
import { deviceTelemetryRoutes } from "./routes/device-telemetry.routes.ts";
import { errorLogRoutes } from "./routes/error-log.routes.ts";
import { menuRoutes } from "./routes/menu.routes.ts";
import { mobileRoutes } from "./routes/mobile.routes.ts";
import { systemRoutes } from "./routes/system.routes.ts";
import { tokenRoutes } from "./routes/token.routes.ts";

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
  deviceTelemetry: deviceTelemetryRoutes,
} as const;
export * from "./device/index.ts";
