-- App versions (types 0 Android, 1 iOS) on the existing version records: a store page, a forced
-- update flag and the oldest version still supported, for the app's "latest version" answer.
ALTER TABLE firmware_version
  ADD COLUMN store_url text,
  ADD COLUMN force_update boolean NOT NULL DEFAULT false,
  ADD COLUMN min_supported_version text;
ALTER TABLE firmware_version DROP CONSTRAINT firmware_version_check;
ALTER TABLE firmware_version
  ADD CONSTRAINT firmware_version_link_check CHECK (download_url IS NOT NULL OR file_id IS NOT NULL OR store_url IS NOT NULL);
CREATE INDEX firmware_version_app_latest ON firmware_version (tenant_id, type) WHERE deleted_at IS NULL AND state = 1;
