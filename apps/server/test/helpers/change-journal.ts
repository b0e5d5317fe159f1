import type { Db } from "../../src/db/db.ts";

export interface JournalRow {
  seq: number;
  /** The transaction that made the change. */
  xid: number;
  table: string;
  /** For sys_log rows: the operation and the log type. */
  operation: string | null;
  logType: string | null;
}

/**
 * A test's record of every committed change, whatever code made it: a row trigger on every table
 * notes the changing transaction in `test_change_journal` (rolled back with it, so only committed
 * changes remain, in the order they were made). With `refuseLog(true)` inserting an operation-log
 * line fails, as a full disk or a broken constraint would make it fail.
 */
export async function installChangeJournal(db: Db) {
  await db.exec(`
    CREATE TABLE test_change_journal (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      xid bigint NOT NULL,
      tbl text NOT NULL,
      operation text,
      log_type text
    );
    CREATE FUNCTION test_note_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO test_change_journal (xid, tbl) VALUES (pg_current_xact_id()::text::bigint, TG_TABLE_NAME);
      RETURN NULL;
    END $fn$;
    CREATE FUNCTION test_note_line() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO test_change_journal (xid, tbl, operation, log_type)
      VALUES (pg_current_xact_id()::text::bigint, 'sys_log', NEW.operation, NEW.log_type);
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER test_note_line AFTER INSERT ON sys_log FOR EACH ROW EXECUTE FUNCTION test_note_line();
    -- Deleting lines is a change; updating them is the log completing its own lines.
    CREATE FUNCTION test_note_log_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO test_change_journal (xid, tbl) VALUES (pg_current_xact_id()::text::bigint, 'sys_log (deleted)');
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER test_note_log_delete AFTER DELETE ON sys_log FOR EACH ROW EXECUTE FUNCTION test_note_log_delete();
    CREATE FUNCTION test_refuse_log() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      RAISE EXCEPTION 'the operation log refuses this line (test)';
    END $fn$;
    CREATE TRIGGER test_refuse_log BEFORE INSERT ON sys_log FOR EACH ROW WHEN (NEW.log_type = 'operation')
      EXECUTE FUNCTION test_refuse_log();
    ALTER TABLE sys_log DISABLE TRIGGER test_refuse_log;
  `);
  // The journal itself and the log it checks; and the console's own bookkeeping, which no request
  // writes: job leases renewed on a timer, the repeat guard (it runs before a request's audit
  // scope, on purpose), notices between processes.
  const BOOKKEEPING = ["test_change_journal", "sys_log", "job_lease", "repeat_guard", "cluster_event"]
    .map((t) => `'${t}'`)
    .join(", ");
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname NOT IN (${BOOKKEEPING})`,
  );
  for (const { name } of rows) {
    await db.exec(
      `CREATE TRIGGER test_note_change AFTER INSERT OR UPDATE OR DELETE ON ${name} FOR EACH ROW EXECUTE FUNCTION test_note_change()`,
    );
  }

  return {
    tables: rows.length + 1,
    async mark(): Promise<number> {
      const { rows } = await db.query<{ seq: number | null }>("SELECT max(seq) AS seq FROM test_change_journal");
      return rows[0]?.seq ?? 0;
    },
    async since(mark: number): Promise<JournalRow[]> {
      const { rows } = await db.query<JournalRow>(
        `SELECT seq, xid, tbl AS table, operation, log_type AS "logType" FROM test_change_journal WHERE seq > $1 ORDER BY seq`,
        [mark],
      );
      return rows;
    },
    async refuseLog(refuse: boolean) {
      await db.exec(`ALTER TABLE sys_log ${refuse ? "ENABLE" : "DISABLE"} TRIGGER test_refuse_log`);
    },
  };
}

export type ChangeJournal = Awaited<ReturnType<typeof installChangeJournal>>;
