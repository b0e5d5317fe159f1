-- The trigram indexes of 0080 also answer plain equality (pg_trgm 1.6), and the planner took them
-- for `sn = ANY(<2,000 serial numbers>)`, the lookup ingest makes when its device cache refreshes:
-- seconds instead of milliseconds, long enough for the broker to drop queued readings. Indexed on
-- lower(…) instead, they serve only the list's case-insensitive substring filters
-- (lower(sn) LIKE '%…%') and equality goes to the unique b-tree again.
DROP INDEX IF EXISTS device_sn_trgm_idx;
DROP INDEX IF EXISTS device_name_trgm_idx;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX device_sn_lower_trgm_idx ON device USING gin (lower(sn) gin_trgm_ops) WHERE deleted_at IS NULL;
    CREATE INDEX device_name_lower_trgm_idx ON device USING gin (lower(name) gin_trgm_ops) WHERE deleted_at IS NULL;
  END IF;
END $$;
