import i18next from "i18next";

/**
 * Shown when a code chunk failed to load outside React's reach (a preload): a plain banner
 * with a reload button, so the user is never left with a white screen.
 */
export function showChunkFailure() {
  if (document.getElementById("ess-chunk-failure")) return;
  const bar = document.createElement("div");
  bar.id = "ess-chunk-failure";
  bar.setAttribute("role", "alert");
  bar.style.cssText =
    "position:fixed;top:0;left:0;right:0;z-index:2000;padding:12px 16px;background:#fffbe6;border-bottom:1px solid #ffe58f;display:flex;gap:12px;align-items:center;flex-wrap:wrap;font:14px system-ui,sans-serif";
  const text = document.createElement("span");
  text.textContent = `${i18next.t("shell:chunk.title")} ${i18next.t("shell:chunk.detail")}`;
  const button = document.createElement("button");
  button.textContent = i18next.t("shell:chunk.reload");
  button.dataset.testid = "chunk-reload";
  button.onclick = () => location.reload();
  bar.append(text, button);
  document.body.append(bar);
}
