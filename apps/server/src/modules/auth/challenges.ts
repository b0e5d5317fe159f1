import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "../../db/db.ts";

export type ChallengeKind = "captcha" | "slide" | "slide-proof" | "sms";
export type ChallengeOutcome = "ok" | "wrong" | "missing";

const digest = (kind: ChallengeKind, key: string, answer: string) =>
  createHash("sha256").update(`${kind}\n${key}\n${answer.trim().toUpperCase()}`).digest();

const same = (a: Buffer | null, b: Buffer) => a !== null && a.length === b.length && timingSafeEqual(a, b);

/**
 * Open challenges (captcha texts, slide puzzles, slide proofs, SMS codes) in the database, so
 * every server process can check what another one issued. Answers are stored as digests.
 */
export function createChallenges(db: Db) {
  let lastSweep = 0;
  async function sweep() {
    if (Date.now() - lastSweep < 60_000) return;
    lastSweep = Date.now();
    await db.query("DELETE FROM auth_challenge WHERE expires_at < now()");
  }

  return {
    /** Opens (or replaces) the challenge `kind`/`key`. */
    async put(kind: ChallengeKind, key: string, ttlS: number, answer: { text?: string; x?: number }) {
      await sweep();
      await db.query(
        `INSERT INTO auth_challenge (kind, key, answer_hash, answer_x, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
         ON CONFLICT (kind, key) DO UPDATE
           SET answer_hash = EXCLUDED.answer_hash, answer_x = EXCLUDED.answer_x, attempts = 0,
               issued_at = now(), expires_at = EXCLUDED.expires_at`,
        [kind, key, answer.text === undefined ? null : digest(kind, key, answer.text), answer.x ?? null, ttlS],
      );
    },

    /** Checks a text answer once: the challenge is gone afterwards, right or wrong. */
    async consume(kind: ChallengeKind, key: string, text: string): Promise<ChallengeOutcome> {
      const { rows } = await db.query<{ answer_hash: Buffer | null }>(
        "DELETE FROM auth_challenge WHERE kind = $1 AND key = $2 AND expires_at > now() RETURNING answer_hash",
        [kind, key],
      );
      if (!rows[0]) return "missing";
      return same(rows[0].answer_hash, digest(kind, key, text)) ? "ok" : "wrong";
    },

    /** Takes the slide puzzle (once) with how long ago it was issued. */
    async takeSlide(key: string): Promise<{ x: number; ageMs: number } | null> {
      const { rows } = await db.query<{ answer_x: number; age_ms: number }>(
        `DELETE FROM auth_challenge WHERE kind = 'slide' AND key = $1 AND expires_at > now()
         RETURNING answer_x, (extract(epoch FROM now() - issued_at) * 1000)::int AS age_ms`,
        [key],
      );
      return rows[0] ? { x: rows[0].answer_x, ageMs: rows[0].age_ms } : null;
    },

    /** Checks a code that allows a few tries (SMS): a wrong code costs a try, the last one ends it. */
    async attempt(kind: ChallengeKind, key: string, text: string, maxAttempts: number): Promise<ChallengeOutcome> {
      const { rows } = await db.query<{ answer_hash: Buffer | null; attempts: number }>(
        `UPDATE auth_challenge SET attempts = attempts + 1
          WHERE kind = $1 AND key = $2 AND expires_at > now() RETURNING answer_hash, attempts`,
        [kind, key],
      );
      const row = rows[0];
      if (!row) return "missing";
      const ok = same(row.answer_hash, digest(kind, key, text));
      if (ok || row.attempts >= maxAttempts)
        await db.query("DELETE FROM auth_challenge WHERE kind = $1 AND key = $2", [kind, key]);
      return ok ? "ok" : "wrong";
    },
  };
}

export type Challenges = ReturnType<typeof createChallenges>;
