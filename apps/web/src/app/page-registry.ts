import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/**
 * The pages a menu item can open, by the `component` path stored with the menu (the server's
 * default menu tree uses these keys). Each page loads on demand. Features add their pages here.
 */
export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  "views/wel/index": lazy(() => import("../features/home/pages/home.page.tsx")),
};
