import { z } from "zod";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

/**
 * The console's local error log (spec §3 Local error log entry), uploaded from the error-log
 * dialog. Identity implements the route (stored with the operation log, `POST /admin/log/logs`);
 * the console shell sends it.
 */
export const clientErrorEntry = z.object({
  type: text().max(64),
  url: text().max(2048),
  message: text().max(4000),
  stack: text().max(20_000).nullable(),
  info: text().max(4000).nullable(),
  time: text().max(64),
});
export type ClientErrorEntry = z.infer<typeof clientErrorEntry>;

export const errorLogRoutes = {
  upload: defineRoute({
    method: "POST",
    path: "/admin/log/logs",
    summary: "Upload entries of the console's local error log",
    tags: ["logs"],
    access: { signedIn: true },
    body: z.array(clientErrorEntry).min(1).max(500),
    data: z.object({ stored: z.number().int() }),
    scope: { entity: "self" },
    // The entries are themselves written to the operation log; a second line per upload adds nothing.
    audit: false,
    demo: "allowed",
  }),
} as const;
