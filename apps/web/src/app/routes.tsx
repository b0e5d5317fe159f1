import { PRODUCT } from "@ess/domain/product.ts";
import { lazy } from "react";
import { createHashRouter, Navigate, type RouteObject, useParams } from "react-router";
import { ErrorBoundary } from "../ui/error-boundary.tsx";
import { Guard } from "./guard.tsx";
import type { RouteHandle } from "./layout/console-layout.tsx";

const LoginPage = lazy(() => import("../features/auth/pages/login.page.tsx"));
const HomePage = lazy(() => import("../features/home/pages/home.page.tsx"));
const DeviceDetailsPage = lazy(() => import("../features/devices/pages/device-details.page.tsx"));
const DeviceSettingsPage = lazy(() => import("../features/device-settings/pages/device-settings.page.tsx"));
const ModesPage = lazy(() => import("../features/device-settings/pages/modes.page.tsx"));
const DisplayConfigPage = lazy(() => import("../features/device-settings/pages/display-config.page.tsx"));
const ConsoleLayout = lazy(() => import("./layout/console-layout.tsx").then((m) => ({ default: m.ConsoleLayout })));
const LockPage = lazy(() => import("./pages/lock.page.tsx"));
const LockClock = lazy(() => import("./pages/lock.page.tsx").then((m) => ({ default: m.LockClock })));
const LockUnlock = lazy(() => import("./pages/lock.page.tsx").then((m) => ({ default: m.LockUnlock })));
const InfoPage = lazy(() => import("../features/auth/pages/personal-info.page.tsx"));
const IframePage = lazy(() => import("./pages/iframe.page.tsx"));
const AuthRedirectPage = lazy(() => import("./pages/auth-redirect.page.tsx"));
const MenuPage = lazy(() => import("./pages/menu.page.tsx"));
const NotFoundPage = lazy(() => import("./pages/status.page.tsx").then((m) => ({ default: m.NotFoundPage })));
const StatusPage = lazy(() => import("./pages/status.page.tsx").then((m) => ({ default: m.StatusPage })));

const handle = (h: RouteHandle) => h;

/** /device/live/:deviceId, the former live page, now a tab of the device details. */
function DeviceLiveRedirect() {
  return <Navigate to={`/device/details/${useParams().deviceId}`} replace />;
}

/** Hash routes (spec §2). Pages load on demand so the sign-in page stays small. */
export const routes: RouteObject[] = [
  {
    element: <Guard />,
    errorElement: <ErrorBoundary>{null}</ErrorBoundary>,
    children: [
      { path: "/login", element: <LoginPage /> },
      {
        path: "/lock",
        element: <LockPage />,
        children: [
          { index: true, element: <Navigate to="/lock/pages1" replace /> },
          { path: "pages1", element: <LockClock /> },
          { path: "pages2", element: <LockUnlock /> },
        ],
      },
      { path: "/404", element: <NotFoundPage /> },
      { path: "/authredirect", element: <AuthRedirectPage /> },
      { path: "/", element: <Navigate to="/wel" replace /> },
      { path: "/wel", element: <Navigate to={PRODUCT.homePath} replace /> },
      {
        element: <ConsoleLayout />,
        children: [
          { path: PRODUCT.homePath, element: <HomePage />, handle: handle({ title: "shell:tabs.home" }) },
          { path: PRODUCT.infoPath, element: <InfoPage />, handle: handle({ title: "shell:routes.info" }) },
          { path: "/403", element: <StatusPage code={403} />, handle: handle({ title: "shell:routes.forbidden" }) },
          { path: "/500", element: <StatusPage code={500} />, handle: handle({ title: "shell:routes.serverError" }) },
          { path: "/myiframe/*", element: <IframePage /> },
          // The live view is part of the details page now; old links (bookmarks, messages) land there.
          { path: "/device/live/:deviceId", element: <DeviceLiveRedirect /> },
          {
            path: "/device/settings/:deviceId",
            element: <DeviceSettingsPage />,
            handle: handle({ title: "shell:routes.deviceSettings" }),
          },
          { path: "/device/modes", element: <ModesPage />, handle: handle({ title: "shell:routes.modes" }) },
          {
            path: "/device/settings-display",
            element: <DisplayConfigPage />,
            handle: handle({ title: "shell:routes.displayConfig" }),
          },
          {
            path: "/device/details/:deviceId",
            element: <DeviceDetailsPage />,
            handle: handle({ title: "devices:detailsTitle" }),
          },
          // Routes added at run time from the server menu; unknown paths go to /404.
          { path: "*", element: <MenuPage /> },
        ],
      },
    ],
  },
];

export const createRouter = () => createHashRouter(routes);
