import { PRODUCT } from "@ess/domain/product.ts";
import { Descriptions, Divider, Drawer, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { SWITCHES, setSwitch, usePreferences } from "../state/preferences.ts";

/** The eight layout switches (all on by default) and the version panel (spec §2). */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation("shell");
  const { show } = usePreferences();
  return (
    <Drawer title={t("drawer.title")} open={open} onClose={onClose} size={320} data-testid="settings-drawer">
      <Divider titlePlacement="start">{t("drawer.switches")}</Divider>
      <div style={{ maxHeight: 500, overflowY: "auto" }}>
        {SWITCHES.map((name) => (
          <div
            key={name}
            style={{ display: "flex", justifyContent: "space-between", alignItems: "center", padding: "8px 0", gap: 8 }}
          >
            <span>{t(`drawer.${name}`)}</span>
            <Switch
              checked={show[name]}
              onChange={(on) => setSwitch(name, on)}
              data-testid={`switch-${name}`}
              aria-label={t(`drawer.${name}`)}
            />
          </div>
        ))}
      </div>
      <Divider titlePlacement="start">{t("drawer.about")}</Divider>
      <Descriptions column={1} size="small" data-testid="version-panel">
        <Descriptions.Item label={t("drawer.version")}>{PRODUCT.version}</Descriptions.Item>
        <Descriptions.Item label={t("drawer.build")}>{__APP_BUILD__}</Descriptions.Item>
        <Descriptions.Item label={t("drawer.copyright")}>{`© ${PRODUCT.copyright} ${t("common:appName")}`}</Descriptions.Item>
      </Descriptions>
    </Drawer>
  );
}
