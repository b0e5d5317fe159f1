import { GlobalOutlined } from "@ant-design/icons";
import { LOCALES, type Locale } from "@ess/domain/locales.ts";
import { Select } from "antd";
import { useTranslation } from "react-i18next";
import { changeLanguage } from "../i18n/i18n.ts";

/** The console language (spec §1); the choice is stored and survives reloads. */
export function LanguageSelect({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation("common");
  return (
    <Select
      aria-label={t("language")}
      data-testid="language-select"
      value={i18n.language as Locale}
      onChange={(value: Locale) => void changeLanguage(value)}
      options={LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      labelRender={compact ? () => <GlobalOutlined /> : undefined}
      popupMatchSelectWidth={false}
      variant="borderless"
      style={compact ? { width: 56 } : { minWidth: 96 }}
    />
  );
}
