-- The FAQ problem's words in every language as one text, for the keyword search: one ILIKE per
-- row instead of ten reads into two jsonb objects. The parts are separated by line ends, so only
-- a keyword that itself holds a line end could match across two of them.
ALTER TABLE faq_problem ADD COLUMN search_text text GENERATED ALWAYS AS (
  coalesce(title->>'zh-CN', '') || E'\n' || coalesce(title->>'en-US', '') || E'\n' || coalesce(title->>'it', '') || E'\n' || coalesce(title->>'es', '') || E'\n' || coalesce(title->>'ja', '') || E'\n' || coalesce(content->>'zh-CN', '') || E'\n' || coalesce(content->>'en-US', '') || E'\n' || coalesce(content->>'it', '') || E'\n' || coalesce(content->>'es', '') || E'\n' || coalesce(content->>'ja', '')
) STORED;
-- Answered by a trigram index where pg_trgm is available (as the device list's, migration 0080).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX faq_problem_search_trgm_idx ON faq_problem USING gin (search_text gin_trgm_ops);
  END IF;
END $$;
