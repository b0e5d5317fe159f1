import type { Locale } from "@ess/domain";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { loadAntdLocale } from "./i18n/antd-locale.ts";
import { initI18n } from "./i18n/i18n.ts";

const i18n = await initI18n();
const antdLocale = await loadAntdLocale(i18n.language as Locale);
const root = document.getElementById("root");
if (root) createRoot(root).render(<App initialAntdLocale={antdLocale} />);
