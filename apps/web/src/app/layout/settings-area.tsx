import {
  BgColorsOutlined,
  BugOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  LockOutlined,
  SettingOutlined,
  SkinOutlined,
} from "@ant-design/icons";
import { Badge, Button, ColorPicker, Dropdown, Tooltip } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorLog } from "../state/error-log.ts";
import { setPreference, THEME_COLOURS, THEMES, usePreferences } from "../state/preferences.ts";

/** Spec §9: the error-log badge shows at most 99. */
export const BADGE_MAX = 99;

const themeKey = (name: string) => `themes.${name === "default" ? "default" : name.replace("theme-", "")}`;

function useFullscreen(): [boolean, () => void] {
  const [on, setOn] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const sync = () => setOn(Boolean(document.fullscreenElement));
    document.addEventListener("fullscreenchange", sync);
    return () => document.removeEventListener("fullscreenchange", sync);
  }, []);
  const toggle = () => {
    const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch((error: unknown) => console.warn("full screen refused", error));
  };
  return [on, toggle];
}

/** Theme colour, theme, lock, full screen, error log and the settings drawer (spec §2 Layout). */
export function SettingsArea({
  onLock,
  onErrorLog,
  onSettings,
}: {
  onLock: () => void;
  onErrorLog: () => void;
  onSettings: () => void;
}) {
  const { t } = useTranslation("shell");
  const prefs = usePreferences();
  const errors = useErrorLog();
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const { show } = prefs;

  return (
    <>
      {show.color && (
        <ColorPicker
          value={prefs.themeColor}
          disabledAlpha
          presets={[{ label: t("colours.presets"), colors: [...THEME_COLOURS], defaultOpen: true }]}
          onChangeComplete={(c) => setPreference("themeColor", c.toHexString().toUpperCase())}
        >
          <Tooltip title={t("topbar.themeColour")}>
            <Button type="text" icon={<BgColorsOutlined />} aria-label={t("topbar.themeColour")} data-testid="theme-colour" />
          </Tooltip>
        </ColorPicker>
      )}
      {show.theme && (
        <Dropdown
          trigger={["click"]}
          menu={{
            selectable: true,
            selectedKeys: [prefs.themeName],
            items: THEMES.map((name) => ({ key: name, label: <span data-testid={`theme-${name}`}>{t(themeKey(name))}</span> })),
            onClick: ({ key }) => setPreference("themeName", key as (typeof THEMES)[number]),
          }}
        >
          <Button
            type="text"
            icon={<SkinOutlined />}
            aria-label={t("topbar.theme")}
            title={t("topbar.theme")}
            data-testid="theme-chooser"
          />
        </Dropdown>
      )}
      {show.lock && (
        <Tooltip title={t("topbar.lock")}>
          <Button type="text" icon={<LockOutlined />} aria-label={t("topbar.lock")} onClick={onLock} data-testid="lock-button" />
        </Tooltip>
      )}
      {show.fullscreen && (
        <Tooltip title={t(fullscreen ? "topbar.exitFullscreen" : "topbar.fullscreen")}>
          <Button
            type="text"
            icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            aria-label={t(fullscreen ? "topbar.exitFullscreen" : "topbar.fullscreen")}
            onClick={toggleFullscreen}
          />
        </Tooltip>
      )}
      {show.debug && (
        <Tooltip title={t("topbar.errorLog")}>
          <Badge count={errors.length} overflowCount={BADGE_MAX} size="small" offset={[-4, 4]} data-testid="error-log-badge">
            <Button
              type="text"
              icon={<BugOutlined />}
              aria-label={t("topbar.errorLog")}
              onClick={onErrorLog}
              data-testid="error-log-button"
            />
          </Badge>
        </Tooltip>
      )}
      <Tooltip title={t("topbar.settings")}>
        <Button
          type="text"
          icon={<SettingOutlined />}
          aria-label={t("topbar.settings")}
          onClick={onSettings}
          data-testid="settings-button"
        />
      </Tooltip>
    </>
  );
}
