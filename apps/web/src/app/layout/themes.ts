import { theme as antdTheme, type ThemeConfig } from "antd";
import type { ThemeName } from "../state/preferences.ts";

/** Themes whose side menu is dark (antd's dark menu); the others use the light menu. */
const DARK_SIDER: ReadonlySet<ThemeName> = new Set(["default", "theme-star", "theme-iview"]);

export const siderIsDark = (name: ThemeName) => DARK_SIDER.has(name);

/** antd's tokens for a theme and colour: the colour drives every primary control. */
export function antdThemeOf(name: ThemeName, colour: string): ThemeConfig {
  return {
    algorithm: antdTheme.defaultAlgorithm,
    token: { colorPrimary: colour, borderRadius: name === "theme-d2" ? 8 : 6 },
    components: {
      Menu: siderIsDark(name) ? { darkItemBg: "transparent", darkSubMenuItemBg: "rgba(0,0,0,0.15)" } : { itemBg: "transparent" },
    },
  };
}
