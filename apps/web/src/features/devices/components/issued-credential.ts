import type { IssuedCredential } from "@ess/contracts";
import { useSyncExternalStore } from "react";

/**
 * The broker credentials the server just answered, waiting to be shown once. The list's create
 * form and row actions are configuration outside React, so they hand the answer over here and the
 * page's dialog shows it. Closing the dialog forgets the secret: nothing keeps it afterwards.
 */
let shown: IssuedCredential | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

export function showIssuedCredential(credential: IssuedCredential) {
  shown = credential;
  notify();
}

export function forgetIssuedCredential() {
  shown = null;
  notify();
}

export function useIssuedCredential(): IssuedCredential | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => shown,
  );
}

/** The credentials of imported devices as a CSV file (built in the browser; the server keeps no copy). */
export function credentialsCsv(credentials: readonly IssuedCredential[], header: readonly string[]): string {
  // Serial numbers, secrets (base64url) and prefixes hold no comma, quote or line break: no quoting needed.
  const lines = [
    header.map((h) => `"${h.replaceAll('"', '""')}"`).join(","),
    ...credentials.map((c) => [c.sn, c.secret, c.topicPrefix].join(",")),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

export function saveTextFile(text: string, fileName: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
