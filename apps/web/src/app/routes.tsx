import { PRODUCT } from "@ess/domain";
import { lazy } from "react";
import { createHashRouter, Navigate, type RouteObject } from "react-router";
import { RequireSession } from "./require-session.tsx";

const LoginPage = lazy(() => import("../features/auth/pages/login.page.tsx"));
const HomePage = lazy(() => import("../features/home/pages/home.page.tsx"));
const PersonalInfoPage = lazy(() => import("../features/auth/pages/personal-info.page.tsx"));

/** Hash routes (spec §2). Pages load on demand so the sign-in page stays small. */
export const routes: RouteObject[] = [
  { path: "/login", element: <LoginPage /> },
  { path: "/", element: <Navigate to="/wel" replace /> },
  { path: "/wel", element: <Navigate to={PRODUCT.homePath} replace /> },
  {
    path: PRODUCT.homePath,
    element: (
      <RequireSession>
        <HomePage />
      </RequireSession>
    ),
  },
  {
    path: "/info/index",
    element: (
      <RequireSession>
        <PersonalInfoPage />
      </RequireSession>
    ),
  },
  { path: "*", element: <Navigate to={PRODUCT.homePath} replace /> },
];

export const createRouter = () => createHashRouter(routes);
