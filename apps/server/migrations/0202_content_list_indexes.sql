-- The app's list of published articles in one language, newest first, whatever their type; and
-- the staff lists' title substring filters (ILIKE '%…%'), answered by trigram indexes where
-- pg_trgm is available (as the device list's, migration 0080).
CREATE INDEX content_article_language_idx ON content_article (tenant_id, language, publish_time DESC, id DESC)
  WHERE deleted_at IS NULL AND state = 1;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX content_article_title_trgm_idx ON content_article USING gin (title gin_trgm_ops) WHERE deleted_at IS NULL;
    CREATE INDEX content_banner_title_trgm_idx ON content_banner USING gin (title gin_trgm_ops) WHERE deleted_at IS NULL;
  END IF;
END $$;
