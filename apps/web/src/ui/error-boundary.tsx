import { Button, Result } from "antd";
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

function Fallback({ chunk, onRetry }: { chunk: boolean; onRetry: () => void }) {
  const { t } = useTranslation("shell");
  return chunk ? (
    <Result
      status="warning"
      title={t("chunk.title")}
      subTitle={t("chunk.detail")}
      extra={
        <Button type="primary" onClick={() => location.reload()} data-testid="chunk-reload">
          {t("chunk.reload")}
        </Button>
      }
      data-testid="chunk-error"
    />
  ) : (
    <Result
      status="500"
      title={t("routes.serverError")}
      subTitle={t("errors:internal")}
      extra={<Button onClick={onRetry}>{t("common:actions.retry")}</Button>}
    />
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
