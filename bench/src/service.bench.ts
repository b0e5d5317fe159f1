/**
 * The customer-service lists with a large tenant: referral cash-backs (bank details sealed as the
 * server seals them), messages, feedback, FAQ classifications and problems (the console's and the
 * app's), regions and app versions, each at a fixed rate from this
 * process to the console server in its own process (embedded PGlite, or PostgreSQL with BENCH_DATABASE_URL; loopback), beside a bare
 * Fastify route as the ceiling. Prints figures; it never passes or fails on time.
 *
 *   npm run service -w @ess/bench -- [rows=100000] [rate=200] [seconds=10]
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from "@ess/domain";
import { createFieldCipher } from "@ess/server/internal/crypto/field-cipher.ts";
import { hashPassword } from "@ess/server/internal/modules/auth/password.ts";
import { BANK_COLUMNS } from "@ess/server/internal/modules/referral/referral.repository.ts";
import { startServerProcess, tempDataDir } from "@ess/server/testing";
import { startBareFastify } from "./bare-fastify-process.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { measureTimerDelay, printTable, runLoad } from "./load.ts";

const rows = Number(process.argv[2] ?? 100_000);
const rate = Number(process.argv[3] ?? 200);
const seconds = Number(process.argv[4] ?? 10);
const password = "Bench12345";
const users = 1_000;
const say = (line: string) => process.stdout.write(`${line}\n`);

// The server's own key file (development mode reads it), so the seeded bank details open as real ones.
const dataDir = tempDataDir("ess-bench-service-");
const key = randomBytes(32);
writeFileSync(join(dataDir, "field.key"), `${key.toString("base64")}\n`, { mode: 0o600 });
const cipher = createFieldCipher(key);

const seeding = performance.now();
const database = await openBenchDatabase(dataDir, "ess_bench_service");
const { db } = database;
await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
await db.query(
  `INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type)
   SELECT 1, 'bench-user-' || g, 'x', 'Bench User ' || g, 2 FROM generate_series(1, $1) g`,
  [users],
);
const { rows: people } = await db.query<{ id: number }>("SELECT id FROM sys_user WHERE username LIKE 'bench-user-%' ORDER BY id");
const ids = people.map((p) => p.id);
await db.query(
  "INSERT INTO device (tenant_id, sn, name) SELECT 1, 'BENCHREF' || lpad(g::text, 8, '0'), 'Bench' FROM generate_series(1, $1) g",
  [rows],
);
/** A distinct referral code per account: the number written in the codes' own alphabet. */
const codeOf = (n: number) => {
  let code = "";
  for (let rest = n, k = 0; k < REFERRAL_CODE_LENGTH; k++, rest = Math.floor(rest / REFERRAL_CODE_ALPHABET.length))
    code = (REFERRAL_CODE_ALPHABET[rest % REFERRAL_CODE_ALPHABET.length] as string) + code;
  return code;
};
// Referral accounts of every user, each with sealed bank details.
for (const [i, id] of ids.entries()) {
  await db.query(
    `INSERT INTO referral_account (tenant_id, user_id, code, bank_bsb, bank_account_number, bank_account_name)
     VALUES (1, $1, $2, $3, $4, $5)`,
    [
      id,
      codeOf(i),
      cipher.seal(String(62000 + i).padStart(6, "0"), BANK_COLUMNS.bsb),
      cipher.seal(String(10_000_000 + i), BANK_COLUMNS.accountNumber),
      cipher.seal(`Bench Holder ${i}`, BANK_COLUMNS.accountName),
    ],
  );
}
await db.query(
  `INSERT INTO referral_cashback (tenant_id, referrer_account_id, referee_account_id, device_id, cash_out_state, created_at)
   SELECT 1, a.id, b.id, d.id, (d.rn % 3 = 0)::int, now() - make_interval(mins => d.rn::int)
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM device) d
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM referral_account) a ON a.n = d.rn % $1
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM referral_account) b ON b.n = (d.rn + 1) % $1`,
  [users],
);
// Drafts, published and recalled messages (none scheduled: the publication job would deliver them).
await db.query(
  `INSERT INTO message (tenant_id, created_by, title, summary, content, terminal, audience, state, published_at, created_at)
   SELECT 1, $2, 'Message ' || g, 'Summary ' || g, '<p>Text ' || g || '</p>', (ARRAY['app','web','both'])[1 + g % 3],
          'everyone', (ARRAY[0, 2, 2, 3])[1 + g % 4], now() - make_interval(mins => g), now() - make_interval(mins => g)
     FROM generate_series(1, $1) g`,
  [rows, ids[0]],
);
await db.query(
  `INSERT INTO feedback (tenant_id, user_id, type, content, contact, state, created_at)
   SELECT 1, ($2::bigint[])[1 + g % $3], g % 4, 'Feedback ' || g, 'user' || g || '@example.com', g % 4, now() - make_interval(mins => g)
     FROM generate_series(1, $1) g`,
  [rows, ids, users],
);
const names = (what: string) =>
  `jsonb_build_object('zh-CN', '${what}（中文）' || g, 'en-US', '${what} ' || g, 'it', '${what} it ' || g, 'es', '${what} es ' || g, 'ja', '${what} ja ' || g)`;
// As many classifications as rows; the problems all sit in the first 100 (1,000 each), so the first
// page of classifications counts the most problems.
await db.query(
  `INSERT INTO faq_classification (tenant_id, name, summary, sort) SELECT 1, ${names("Class")}, 'Summary', g FROM generate_series(1, $1) g`,
  [rows],
);
await db.query(
  `INSERT INTO faq_problem (tenant_id, classification_id, title, content, sort)
   SELECT 1, (SELECT min(id) FROM faq_classification) + g % 100, ${names("Question")}, ${names("Answer")}, g % 1000
     FROM generate_series(1, $1) g`,
  [rows],
);
await db.query(
  `INSERT INTO region (tenant_id, grade, code, name, sort) SELECT 1, 0, 'C' || g, ${names("Country")}, g FROM generate_series(1, 100) g`,
);
await db.query(
  `INSERT INTO region (tenant_id, parent_id, grade, code, name, sort)
   SELECT 1, (SELECT min(id) FROM region) + g % 100, 1, 'R' || g, ${names("Region")}, g FROM generate_series(1, 1000) g`,
);
await db.query(
  `INSERT INTO region (tenant_id, parent_id, grade, code, name, sort)
   SELECT 1, (SELECT min(id) FROM region WHERE grade = 1) + g % 1000, 2, 'T' || g, ${names("Town")}, g FROM generate_series(1, $1) g`,
  [rows],
);
// One end user whose inbox holds every message (the app's inbox at its largest), signed in below.
await db.query("UPDATE sys_user SET password_hash = $1 WHERE id = $2", [await hashPassword(password), ids[0]]);
await db.query("INSERT INTO message_recipient (message_id, user_id, published_at) SELECT id, $1, published_at FROM message", [
  ids[0],
]);
// App versions on the version records (types 0 Android, 1 iOS), half of them distributed.
await db.query(
  `INSERT INTO firmware_version (tenant_id, type, version_code, version_name, download_url, state)
   SELECT 1, g % 2, g::text, '1.' || g, 'https://apps.example.com/' || g, g % 2 FROM generate_series(1, $1) g`,
  [rows],
);
await db.query("ANALYZE");
const parent = (await db.query<{ id: number }>("SELECT min(id) AS id FROM region WHERE grade = 1")).rows[0]?.id;
const faqClass = (await db.query<{ id: number }>("SELECT min(id) AS id FROM faq_classification")).rows[0]?.id;
await db.close();
say(`seeded ${rows} rows in each list into ${database.engine} in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

const bare = startBareFastify();
const barePort = await bare.port;
const server = startServerProcess({
  ...database.serverEnv,
  DATA_DIR: dataDir,
  ESS_ADMIN_PASSWORD: password,
  ESS_SESSION_CACHE_S: "10",
});
const url = await server.ready();
const signIn = async (username: string) => {
  const answer = (await (
    await fetch(`${url}login?grant_type=admin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    })
  ).json()) as { data: { access_token: string } };
  return { authorization: `Bearer ${answer.data.access_token}` };
};
const staff = await signIn("admin");
const reader = await signIn("bench-user-1");
const readerInItalian = { ...reader, "accept-language": "it" };

say(
  `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const floor = await measureTimerDelay();
say(`machine floor (idle 10 ms timer lateness): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms`);
const results = [];
for (const [name, target, headers] of [
  ["bare Fastify (ceiling)", `http://127.0.0.1:${barePort}/bare`, {}],
  ["referral cash-backs, first page (bank details opened)", `${url}aus/referral/ausReferralCashback/list`, staff],
  ["referral cash-backs, cashed out, page 3", `${url}aus/referral/ausReferralCashback/list?cashOutState=1&current=3`, staff],
  ["referral cash-backs, device SN substring", `${url}aus/referral/ausReferralCashback/list?sn=0004242`, staff],
  ["messages, first page", `${url}admin/message/page`, staff],
  ["messages, published, app", `${url}admin/message/page?state=2&terminal=app`, staff],
  ["app: inbox of a user with every message", `${url}app/message/inbox`, reader],
  ["app: inbox, page 5", `${url}app/message/inbox?current=5`, reader],
  ["feedback, first page", `${url}admin/feedback/page`, staff],
  ["feedback, needs handling, page 3", `${url}admin/feedback/page?state=2&current=3`, staff],
  ["FAQ problems, first page", `${url}admin/faq/problem/page`, staff],
  ["FAQ problems, keyword", `${url}admin/faq/problem/page?keyword=Question%204242`, staff],
  ["FAQ classifications, first page (problems counted)", `${url}admin/faq/classification/page`, staff],
  ["app: FAQ classifications", `${url}app/faq`, readerInItalian],
  ["app: FAQ classifications, page 5", `${url}app/faq?current=5`, readerInItalian],
  ["app: FAQ problems of a classification", `${url}app/faq/problems?classificationId=${faqClass}`, readerInItalian],
  ["app: FAQ problems, page 50", `${url}app/faq/problems?classificationId=${faqClass}&current=50`, readerInItalian],
  ["app versions, first page", `${url}admin/app/version/page`, staff],
  ["app versions, iOS, page 3", `${url}admin/app/version/page?type=1&current=3`, staff],
  ["regions, children of a region", `${url}admin/region/page?parentId=${parent}`, staff],
] as const) {
  await runLoad({ url: target, headers, ratePerSec: rate, durationS: 1 }); // warm-up
  results.push({ name, result: await runLoad({ url: target, headers, ratePerSec: rate, durationS: seconds }) });
}
printTable(results);
bare.stop();
await server.stop();
await database.drop();
