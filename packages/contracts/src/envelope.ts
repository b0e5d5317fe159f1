import { z } from "zod";

/** Every JSON answer of the API is wrapped as `{code, msg, data}` (spec §7): code 0 success. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}

/** A refused field and its translated problem, so a form can mark the field. */
export const fieldError = z.object({ field: z.string(), message: z.string() });

/**
 * An error answer: `code` 1 (or 5 for an expired session), the translated `msg`, the catalogue
 * code of spec §8 in `errorCode`, and for refused input the fields in `data.fields`.
 */
export const errorEnvelope = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.object({ fields: z.array(fieldError) }).nullable(),
  errorCode: z.string(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Paged data `{records, total, size, pages, current}` (spec §7). */
export function pageOf<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number().int().nonnegative(),
    size: z.number().int().positive(),
    pages: z.number().int().nonnegative(),
    current: z.number().int().positive(),
    /** More records match than `total`: the server stopped counting there (large lists). */
    totalCapped: z.boolean().optional(),
  });
}
export type Page<T> = { records: T[]; total: number; size: number; pages: number; current: number; totalCapped?: boolean };

export const PAGE_SIZE_MAX = 500;

/** Query parameters of every paged list: `current` (1-based) and `size`. */
export const pageQuery = z.object({
  current: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(10),
});
export type PageQuery = z.infer<typeof pageQuery>;
