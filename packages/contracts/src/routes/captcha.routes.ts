import { z } from "zod";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

/** The key a client makes up for one captcha image or slide puzzle and sends back with the answer. */
export const randomStr = text()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/);

export const slidePuzzle = z.object({
  /** PNG data URLs. */
  background: z.string(),
  piece: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  pieceSize: z.number().int(),
  /** The piece's row; the user finds the column. */
  y: z.number().int(),
});

/**
 * Sign-in verification (spec §2 Login page): a captcha image, or a slide puzzle whose solution
 * gives a one-time proof. Either one accompanies the password at sign-in, unless the server runs
 * with ESS_CAPTCHA=off.
 */
export const captchaRoutes = {
  /** What the sign-in page must ask for: with ESS_CAPTCHA=off, neither captcha nor slide. */
  settings: defineRoute({
    method: "GET",
    path: "/auth/sign-in/settings",
    summary: "Whether sign-in needs a captcha or slide verification",
    tags: ["auth"],
    access: { public: true },
    data: z.object({ captcha: z.boolean() }),
  }),
  image: defineRoute({
    method: "GET",
    path: "/sys/code",
    summary: "A captcha image (PNG) for the given randomStr",
    tags: ["auth"],
    access: { public: true },
    query: z.object({ randomStr }),
    data: z.string().describe("image/png"),
    raw: true,
  }),
  slide: defineRoute({
    method: "GET",
    path: "/code",
    summary: "A slide puzzle for the given randomStr",
    tags: ["auth"],
    access: { public: true },
    query: z.object({ randomStr }),
    data: slidePuzzle,
  }),
  slideCheck: defineRoute({
    method: "POST",
    path: "/code/check",
    summary: "Check where the slide piece was dropped; answers a one-time proof for sign-in",
    tags: ["auth"],
    access: { public: true },
    body: z.object({ randomStr, x: z.number().min(0).max(1000) }),
    data: z.object({ proof: z.string(), expiresIn: z.number().int() }),
    demo: "allowed",
    audit: false,
  }),
} as const;
