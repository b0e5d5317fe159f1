-- The device list's substring filters (SN and name, ILIKE '%…%') cannot use a b-tree; trigram
-- indexes answer them. pg_trgm ships with PostgreSQL and with the embedded database, but an
-- installation without it still migrates and filters by scanning, as before.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX device_sn_trgm_idx ON device USING gin (sn gin_trgm_ops) WHERE deleted_at IS NULL;
    CREATE INDEX device_name_trgm_idx ON device USING gin (name gin_trgm_ops) WHERE deleted_at IS NULL;
  END IF;
END $$;
