import { LOCALES, type Locale } from "@ess/domain/locales.ts";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { changeLanguage } from "../i18n/i18n.ts";

// Drawn by hand with antd's look: antd's Select or Dropdown would add about 25 KB of gzipped script
// to the sign-in page, whose weight the browser test holds.
const BUTTON = {
  display: "inline-flex",
  alignItems: "center",
  gap: 6,
  height: 32,
  padding: "0 11px",
  border: "1px solid #d9d9d9",
  borderRadius: 6,
  background: "#fff",
  color: "rgba(0,0,0,0.88)",
  font: "inherit",
  fontSize: 14,
  cursor: "pointer",
} as const;
const LIST = {
  position: "absolute",
  insetInlineEnd: 0,
  top: 36,
  zIndex: 1050,
  minWidth: 140,
  padding: 4,
  background: "#fff",
  borderRadius: 8,
  boxShadow: "0 6px 16px rgba(0,0,0,0.08), 0 3px 6px -4px rgba(0,0,0,0.12), 0 9px 28px 8px rgba(0,0,0,0.05)",
} as const;

const OPTION_STYLE = `
.ess-language-option{display:block;width:100%;padding:5px 12px;border:0;border-radius:4px;background:transparent;
  color:rgba(0,0,0,.88);font:inherit;text-align:start;cursor:pointer}
.ess-language-option:hover,.ess-language-option:focus-visible{background:rgba(0,0,0,.04);outline:0}
.ess-language-option[aria-selected=true]{background:#e6f4ff}
`;

function GlobeIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
    </svg>
  );
}

/**
 * The language choice of pages outside the console layout (sign-in): a button naming the language
 * that opens the list of the five, each in its own language; arrows move between them, Enter picks,
 * Escape closes.
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation("common");
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const current = Math.max(LOCALES.indexOf(i18n.language as Locale), 0);

  useEffect(() => {
    if (!open) return;
    // The chosen language takes the focus; a click elsewhere closes the list.
    root.current?.querySelector<HTMLButtonElement>("[aria-selected=true]")?.focus();
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const choose = (locale: Locale) => {
    close();
    void changeLanguage(locale);
  };
  const onListKey = (event: KeyboardEvent) => {
    const options = [...(root.current?.querySelectorAll<HTMLButtonElement>("[role=option]") ?? [])];
    const at = options.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === "Escape") close();
    else if (event.key === "ArrowDown") options[(at + 1) % options.length]?.focus();
    else if (event.key === "ArrowUp") options[(at + options.length - 1) % options.length]?.focus();
    else return;
    event.preventDefault();
  };

  return (
    <div ref={root} style={{ position: "relative" }}>
      <button
        ref={toggle}
        type="button"
        aria-label={t("language")}
        aria-haspopup="listbox"
        aria-expanded={open}
        data-testid="language-select"
        style={BUTTON}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <GlobeIcon />
        {t(`languages.${LOCALES[current]}`)}
        <span aria-hidden="true" style={{ fontSize: 10, opacity: 0.45 }}>
          ▼
        </span>
      </button>
      {open && (
        <div role="listbox" aria-label={t("language")} style={LIST} onKeyDown={onListKey} tabIndex={-1}>
          {LOCALES.map((locale, index) => (
            <button
              type="button"
              key={locale}
              role="option"
              aria-selected={index === current}
              data-testid={`language-option-${locale}`}
              lang={locale}
              className="ess-language-option"
              onClick={() => choose(locale)}
              style={{ fontWeight: index === current ? 600 : 400 }}
            >
              {t(`languages.${locale}`)}
            </button>
          ))}
        </div>
      )}
      <style>{OPTION_STYLE}</style>
    </div>
  );
}
