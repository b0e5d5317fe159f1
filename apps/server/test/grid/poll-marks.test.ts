import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createPollMarks } from "../../src/modules/grid/poll-marks.ts";
import { createTestDb } from "../helpers/test-db.ts";

/** Each site's last poll reaches grid_site in one statement per batch, the latest mark of each site winning. */
describe("grid poll marks", () => {
  let db: Db;
  const sites: number[] = [];
  const site = async (id: number) =>
    (
      await db.query<{ poll: Date | null; success: Date | null; failure: string | null }>(
        "SELECT last_poll_at AS poll, last_success_at AS success, failure FROM grid_site WHERE id = $1",
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    db = await createTestDb();
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    for (const sn of ["MARKS0001", "MARKS0002"]) {
      const device = await db.query<{ id: number }>(
        "INSERT INTO device (tenant_id, sn, name) VALUES (1, $1, $1) RETURNING id::int",
        [sn],
      );
      const row = await db.query<{ id: number }>(
        "INSERT INTO grid_site (tenant_id, device_id, lfdi, sfdi) VALUES (1, $1, $2, $3) RETURNING id::int",
        [device.rows[0]?.id, String(sites.length + 1).repeat(40), String(sites.length + 1)],
      );
      sites.push(row.rows[0]?.id as number);
    }
  });
  afterAll(async () => db.close());

  it("keeps a failure that came after a success in the same batch, and the success time before it", async () => {
    const [a, b] = sites as [number, number];
    const marks = createPollMarks(db, { delayMs: 60_000, onError: (error) => expect.fail(String(error)) });
    const t = (s: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, s));
    marks.mark(a, t(1), null);
    marks.mark(b, t(1), null);
    await marks.flush();
    marks.mark(a, t(2), null);
    marks.mark(a, t(3), "programs");
    marks.mark(b, t(3), null);
    // Nothing is written before the batch is due.
    expect((await site(b))?.poll).toEqual(t(1));
    await marks.flush();
    expect(await site(a)).toEqual({ poll: t(3), success: t(1), failure: "programs" });
    expect(await site(b)).toEqual({ poll: t(3), success: t(3), failure: null });
  });
});
