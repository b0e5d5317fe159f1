import { persistedStore, useStore } from "./persisted-store.ts";

/** One entry of the local error log (spec §3). */
export interface ErrorLogEntry {
  id: string;
  url: string;
  time: string;
  type: string;
  message: string;
  stack: string | null;
  info: string | null;
}

/** Oldest entries go first past this many, so a loop of errors cannot fill the storage. */
export const ERROR_LOG_LIMIT = 200;

export const errorLogStore = persistedStore<ErrorLogEntry[]>(
  () => localStorage,
  "ess.errorLog",
  [],
  (raw) => (Array.isArray(raw) ? (raw as ErrorLogEntry[]) : []),
);

export const useErrorLog = () => useStore(errorLogStore);

const pad = (n: number) => String(n).padStart(2, "0");
/** The spec's date format, yyyy-MM-dd hh:mm:ss, in local time. */
export function formatTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function recordError(error: unknown, info: string | null = null, type = "error") {
  const err = error instanceof Error ? error : new Error(typeof error === "string" ? error : JSON.stringify(error));
  const entry: ErrorLogEntry = {
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    url: location.href,
    time: formatTime(new Date()),
    type,
    message: err.message.slice(0, 4000),
    stack: err.stack?.slice(0, 20_000) ?? null,
    info: info?.slice(0, 4000) ?? null,
  };
  errorLogStore.update((log) => [entry, ...log].slice(0, ERROR_LOG_LIMIT));
}

/** Unhandled errors and rejections of the page go to the local log (spec §8). */
export function captureUnhandledErrors() {
  window.addEventListener("error", (event) => {
    if (event.error || event.message)
      recordError(event.error ?? event.message, `${event.filename}:${event.lineno}:${event.colno}`);
  });
  window.addEventListener("unhandledrejection", (event) => recordError(event.reason, "unhandledrejection"));
}
