import { LOCALES, type Locale } from "@ess/domain";
import { Select } from "antd";
import { useTranslation } from "react-i18next";
import { changeLanguage } from "../i18n/i18n.ts";

export function LanguageSelect() {
  const { t, i18n } = useTranslation("common");
  return (
    <Select
      aria-label={t("language")}
      data-testid="language-select"
      value={i18n.language as Locale}
      onChange={(value: Locale) => void changeLanguage(value)}
      options={LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      style={{ width: 130 }}
    />
  );
}
