import { buildPath, type RouteContract, type RouteData, type RouteInput } from "@ess/contracts";
import { PRODUCT } from "@ess/domain/product.ts";
import i18next from "i18next";
import { sessionStore } from "../app/session.ts";
import { tokenClientAuthorization } from "./api.ts";

export const REQUEST_TIMEOUT_MS = 30_000;

/** A refused call: the server's translated message, its catalogue code and refused fields. */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyCode: number;
  readonly errorCode: string;
  readonly fields: { field: string; message: string }[];

  constructor(
    status: number,
    bodyCode: number,
    errorCode: string,
    message: string,
    fields: { field: string; message: string }[] = [],
  ) {
    super(message);
    this.status = status;
    this.bodyCode = bodyCode;
    this.errorCode = errorCode;
    this.fields = fields;
  }

  /** 401, or body code 5: the session is over and the user must sign in again. */
  get endsSession() {
    return this.status === 401 || this.bodyCode === 5;
  }
}

type Listener = (error: ApiError) => void;
const sessionEndListeners = new Set<Listener>();
export function onSessionEnd(listener: Listener): () => void {
  sessionEndListeners.add(listener);
  return () => {
    sessionEndListeners.delete(listener);
  };
}

function queryString(query: unknown): string {
  if (!query || typeof query !== "object") return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export interface CallOptions {
  /** `client`: authorise as the console's OAuth client instead of the user (token refresh). */
  as?: "user" | "client";
}

/** Calls one API route with types inferred from its contract; resolves to the envelope's data. */
export async function call<C extends RouteContract>(
  contract: C,
  input: Partial<RouteInput<C>> = {},
  options: CallOptions = {},
): Promise<RouteData<C>> {
  const session = options.as === "client" ? null : sessionStore.get();
  const headers: Record<string, string> = {
    "TENANT-ID": String(PRODUCT.defaultTenantId),
    "Accept-Language": i18next.language,
  };
  if (options.as === "client") headers.Authorization = tokenClientAuthorization();
  else if (session) headers.Authorization = `Bearer ${session.access_token}`;
  if (input.body !== undefined) headers["Content-Type"] = "application/json";
  const url = buildPath(contract.path, input.params as Record<string, string | number> | undefined) + queryString(input.query);

  let response: Response;
  try {
    response = await fetch(url, {
      method: contract.method,
      headers,
      body: input.body === undefined ? null : JSON.stringify(input.body),
      credentials: "same-origin",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const key = (error as Error).name === "TimeoutError" ? "errors:timeout" : "errors:network";
    throw new ApiError(0, 1, "network", i18next.t(key));
  }
  const body = (await response.json().catch(() => null)) as {
    code?: number;
    msg?: string;
    data?: unknown;
    errorCode?: string;
  } | null;
  if (contract.raw && response.ok) return body as RouteData<C>;
  if (!response.ok || !body || body.code !== 0) {
    const fields = (body?.data as { fields?: { field: string; message: string }[] } | null)?.fields ?? [];
    const error = new ApiError(
      response.status,
      body?.code ?? 1,
      body?.errorCode ?? String(response.status),
      body?.msg ?? i18next.t("errors:internal"),
      fields,
    );
    if (error.endsSession && session) for (const listener of sessionEndListeners) listener(error);
    throw error;
  }
  return body.data as RouteData<C>;
}

/**
 * Sends a file as the request body of an upload route (firmware packages, pictures, attachments):
 * the server sniffs, limits and stores it. Answers the envelope's data; a refusal is an ApiError
 * carrying the server's field messages (which name the file).
 */
export async function uploadFile<T>(url: string, file: File): Promise<T> {
  const session = sessionStore.get();
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "TENANT-ID": String(PRODUCT.defaultTenantId),
      "Accept-Language": i18next.language,
      "Content-Type": "application/octet-stream",
      ...(session ? { Authorization: `Bearer ${session.access_token}` } : {}),
    },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as {
    code?: number;
    msg?: string;
    data?: unknown;
    errorCode?: string;
  } | null;
  if (!response.ok || body?.code !== 0) {
    const fields = (body?.data as { fields?: { field: string; message: string }[] } | null)?.fields ?? [];
    throw new ApiError(response.status, body?.code ?? 1, body?.errorCode ?? String(response.status), body?.msg ?? "", fields);
  }
  return body.data as T;
}
