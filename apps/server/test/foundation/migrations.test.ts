import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { migrate, readMigrations } from "../../src/db/migrate.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.close());

describe(`migrations on ${TEST_DRIVER}`, () => {
  it("are all applied, in order, once", async () => {
    const { rows } = await db.query<{ version: string }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((r) => r.version)).toEqual(readMigrations().map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
  });

  it("refuse to start when an applied migration was edited", async () => {
    const [first, ...rest] = readMigrations();
    const edited = { ...(first as NonNullable<typeof first>), checksum: "0".repeat(64) };
    await expect(migrate(db, [edited, ...rest])).rejects.toThrow(/was changed after it was applied/);
  });

  it("roll back a failing migration completely", async () => {
    const broken = {
      version: "9999",
      name: "broken",
      sql: "CREATE TABLE half_done (id int); SELECT no_such_function();",
      checksum: "x",
    };
    await expect(migrate(db, [broken])).rejects.toThrow(/9999_broken failed/);
    const tables = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'");
    expect(tables.rows).toEqual([]);
    const recorded = await db.query("SELECT 1 FROM schema_migrations WHERE version = '9999'");
    expect(recorded.rows).toEqual([]);
  });

  it("read rows the same on both drivers: int8 and numeric as numbers, dates as text", async () => {
    const { rows } = await db.query("SELECT 42::int8 AS n, 1.25::numeric AS x, '2025-03-30'::date AS d, now() AS ts");
    expect(rows[0]).toMatchObject({ n: 42, x: 1.25, d: "2025-03-30" });
    expect((rows[0] as { ts: unknown }).ts).toBeInstanceOf(Date);
  });

  it("copy rows in bulk, escaping what COPY's text format needs", async () => {
    await db.exec("CREATE TEMP TABLE copy_probe (id int, label text, at timestamptz, extra jsonb)");
    const at = new Date("2025-01-02T03:04:05Z");
    const written = await db.copyRows(
      "copy_probe",
      ["id", "label", "at", "extra"],
      [
        [1, "tab\there, newline\nhere, backslash \\", at, { a: 1 }],
        [2, null, null, null],
      ],
    );
    expect(written).toBe(2);
    const { rows } = await db.query("SELECT * FROM copy_probe ORDER BY id");
    expect(rows).toEqual([
      { id: 1, label: "tab\there, newline\nhere, backslash \\", at, extra: { a: 1 } },
      { id: 2, label: null, at: null, extra: null },
    ]);
  });

  it("copy rows in COPY's binary format: bytes, reals, int64, times, text arrays and nulls", async () => {
    await db.exec(
      "CREATE TEMP TABLE copy_binary_probe (id int8, at timestamptz, small int2, r real, d float8, bytes bytea, tags text[], label text)",
    );
    const at = new Date("1999-12-31T23:59:59.123Z");
    const bytes = Buffer.from([0, 1, 2, 0xff, 0x5c, 0x0a]);
    const written = await db.copyRows(
      "copy_binary_probe",
      ["id", "at", "small", "r", "d", "bytes", "tags", "label"],
      [
        [2 ** 40 + 7, at, -3, 1.5, -1234567.0625, bytes, ["TP_0X04_1082", 'naïve \\ "q"'], "tab\tline\n"],
        [-5, Date.parse("2026-03-29T01:30:00Z"), null, null, null, Buffer.alloc(0), null, null],
      ],
      ["int8", "timestamptz", "int2", "float4", "float8", "bytea", "text[]", "text"],
    );
    expect(written).toBe(2);
    const { rows } = await db.query("SELECT * FROM copy_binary_probe ORDER BY id DESC");
    expect(rows).toEqual([
      {
        id: 2 ** 40 + 7,
        at,
        small: -3,
        r: 1.5,
        d: -1234567.0625,
        bytes: expect.anything(),
        tags: ["TP_0X04_1082", 'naïve \\ "q"'],
        label: "tab\tline\n",
      },
      {
        id: -5,
        at: new Date("2026-03-29T01:30:00Z"),
        small: null,
        r: null,
        d: null,
        bytes: expect.anything(),
        tags: null,
        label: null,
      },
    ]);
    expect(Buffer.from(rows[0]?.bytes as Uint8Array)).toEqual(bytes);
    expect(Buffer.from(rows[1]?.bytes as Uint8Array)).toEqual(Buffer.alloc(0));
  });
});
