import type { RouteContract } from "@ess/contracts";
import { PRODUCT } from "@ess/domain/product.ts";
import i18next from "i18next";
import { ApiError } from "../../api/client.ts";
import { sessionStore } from "../../app/session.ts";

/**
 * Downloads an export with the user's token (exports are never bare links): the answer is saved
 * as a file; a refusal comes back as the server's translated message.
 */
export async function downloadExport(route: RouteContract, query: Record<string, unknown>, fileName: string) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== "" && key !== "current" && key !== "size")
      params.append(key, String(value));
  const session = sessionStore.get();
  const response = await fetch(`${route.path}?${params}`, {
    headers: {
      "TENANT-ID": String(PRODUCT.defaultTenantId),
      "Accept-Language": i18next.language,
      ...(session ? { Authorization: `Bearer ${session.access_token}` } : {}),
    },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { code?: number; msg?: string; errorCode?: string } | null;
    throw new ApiError(
      response.status,
      body?.code ?? 1,
      body?.errorCode ?? String(response.status),
      body?.msg ?? i18next.t("errors:internal"),
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
