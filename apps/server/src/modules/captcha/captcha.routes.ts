import { API } from "@ess/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import type { Challenges } from "../auth/challenges.ts";
import type { RateCounter } from "../auth/rate-counter.ts";
import { proofKey } from "../auth/sign-in-guard.ts";
import { newToken } from "../auth/tokens.ts";
import { randomCaptchaText, renderCaptcha, renderSlidePuzzle, SLIDE_SIZE } from "./images.ts";

const CAPTCHA_TTL_S = 300;
const SLIDE_TTL_S = 120;
const PROOF_TTL_S = 120;
/** How far (px) a drop may miss the gap. */
const SLIDE_TOLERANCE = 5;
/** Faster than this from puzzle to drop is not a hand on a mouse. */
const SLIDE_MIN_MS = 300;
/** Images (captcha and puzzles) one address may fetch per minute. */
const IMAGES_PER_MINUTE = 60;

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`;

export function registerCaptchaRoutes(app: FastifyInstance, challenges: Challenges, counter: RateCounter, captchaOn: boolean) {
  bindRoute(app, API.captcha.settings, () => ({ captcha: captchaOn }));

  async function limit(request: FastifyRequest) {
    if ((await counter.hit("captcha-address", request.ip, 60)) > IMAGES_PER_MINUTE) throw new AppError("rateLimited");
  }

  bindRoute(app, API.captcha.image, async ({ request, reply, input }) => {
    await limit(request);
    const text = randomCaptchaText();
    await challenges.put("captcha", input.query.randomStr, CAPTCHA_TTL_S, { text });
    reply.type("image/png").header("cache-control", "no-store").send(renderCaptcha(text));
    return "";
  });

  bindRoute(app, API.captcha.slide, async ({ request, input }) => {
    await limit(request);
    const puzzle = renderSlidePuzzle();
    await challenges.put("slide", input.query.randomStr, SLIDE_TTL_S, { x: puzzle.x });
    return {
      background: dataUrl(puzzle.background),
      piece: dataUrl(puzzle.piece),
      width: SLIDE_SIZE.width,
      height: SLIDE_SIZE.height,
      pieceSize: SLIDE_SIZE.piece,
      y: puzzle.y,
    };
  });

  bindRoute(app, API.captcha.slideCheck, async ({ input }) => {
    const puzzle = await challenges.takeSlide(input.body.randomStr);
    if (!puzzle) throw new AppError("badCaptcha", "auth:captcha.expired");
    if (Math.abs(puzzle.x - input.body.x) > SLIDE_TOLERANCE || puzzle.ageMs < SLIDE_MIN_MS) {
      throw new AppError("badCaptcha", "auth:captcha.slideMissed");
    }
    const proof = newToken();
    await challenges.put("slide-proof", proofKey(proof), PROOF_TTL_S, { text: "1" });
    return { proof, expiresIn: PROOF_TTL_S };
  });
}
