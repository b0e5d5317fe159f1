import { LOCALES, type Locale } from "@ess/domain/locales.ts";
import { useTranslation } from "react-i18next";
import { changeLanguage } from "../i18n/i18n.ts";

/**
 * The language choice for pages outside the console layout (sign-in): the browser's own select,
 * so that the sign-in page does not load antd's Select (about 25 KB gzipped).
 */
export function LanguageNativeSelect() {
  const { t, i18n } = useTranslation("common");
  return (
    <select
      aria-label={t("language")}
      data-testid="language-select"
      value={i18n.language}
      onChange={(event) => void changeLanguage(event.target.value as Locale)}
      style={{
        height: 32,
        padding: "0 8px",
        border: "1px solid #d9d9d9",
        borderRadius: 6,
        background: "#fff",
        color: "rgba(0,0,0,0.88)",
        font: "inherit",
        cursor: "pointer",
      }}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l}>
          {t(`languages.${l}`)}
        </option>
      ))}
    </select>
  );
}
