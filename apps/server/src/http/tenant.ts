import { PRODUCT } from "@ess/domain";
import type { FastifyRequest } from "fastify";

/** The tenant a public call (sign-in, token refresh) addresses: the TENANT-ID header, default 1. */
export function tenantOf(request: FastifyRequest): number {
  const raw = request.headers["tenant-id"];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isSafeInteger(value) && value > 0 ? value : PRODUCT.defaultTenantId;
}
