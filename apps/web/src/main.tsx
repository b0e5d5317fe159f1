import type { Locale } from "@ess/domain/locales.ts";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { browserEnvironment, clearOnNewVersion } from "./app/services/startup-cache.ts";
import { captureUnhandledErrors } from "./app/state/error-log.ts";
import { loadAntdLocale } from "./i18n/antd-locale.ts";
import { initI18n } from "./i18n/i18n.ts";
import { showChunkFailure } from "./ui/chunk-failure.ts";

captureUnhandledErrors();
// A chunk that cannot load (the console was updated, the network dropped) asks for a reload.
window.addEventListener("vite:preloadError", (event) => {
  event.preventDefault();
  showChunkFailure();
});

if (!(await clearOnNewVersion(__APP_VERSION__, browserEnvironment()))) {
  const i18n = await initI18n();
  const antdLocale = await loadAntdLocale(i18n.language as Locale);
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<App initialAntdLocale={antdLocale} />);
}
