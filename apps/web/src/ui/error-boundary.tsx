import { Component, type ErrorInfo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { recordError } from "../app/state/error-log.ts";

/** A code chunk that failed to load (a new build replaced it, or the network dropped). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "ChunkLoadError" ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|CSS_CHUNK_LOAD_FAILED/i.test(
      error.message,
    )
  );
}

const BOX = {
  maxWidth: 520,
  margin: "64px auto",
  padding: 24,
  textAlign: "center",
  font: "14px/1.6 system-ui, sans-serif",
} as const;
const BUTTON = {
  padding: "6px 16px",
  borderRadius: 6,
  border: "1px solid #409EFF",
  background: "#409EFF",
  color: "#fff",
  cursor: "pointer",
} as const;

/** Plain markup, no antd: the fallback must render even when the code of components cannot load. */
function Fallback({ chunk, onRetry }: { chunk: boolean; onRetry: () => void }) {
  const { t } = useTranslation("shell");
  return (
    <div role="alert" style={BOX} data-testid={chunk ? "chunk-error" : "render-error"}>
      <h2 style={{ fontWeight: 500 }}>{chunk ? t("chunk.title") : t("routes.serverError")}</h2>
      <p style={{ color: "rgba(0,0,0,0.55)" }}>{chunk ? t("chunk.detail") : t("errors:internal")}</p>
      {chunk ? (
        <button type="button" style={BUTTON} onClick={() => location.reload()} data-testid="chunk-reload">
          {t("chunk.reload")}
        </button>
      ) : (
        <button type="button" style={BUTTON} onClick={onRetry}>
          {t("common:actions.retry")}
        </button>
      )}
    </div>
  );
}

/**
 * Catches rendering errors below it: a chunk that failed to load gets a reload prompt instead of
 * a white screen; anything else is recorded in the local error log.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { error: unknown; key?: string | undefined }
> {
  override state: { error: unknown; key?: string | undefined } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { error: unknown; key?: string | undefined }) {
    // Navigating elsewhere clears the error so the next page can render.
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (!isChunkLoadError(error)) recordError(error, info.componentStack ?? null);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <Fallback chunk={isChunkLoadError(this.state.error)} onRetry={() => this.setState({ error: null })} />;
  }
}
