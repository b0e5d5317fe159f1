-- Events between console processes (cluster/bus.ts). A notice goes through NOTIFY, whose payload
-- must stay under 8000 bytes; a larger one is stored here and the notice names its row, which the
-- other processes read. Rows are short-lived: the sender deletes those older than a few minutes.
CREATE TABLE cluster_event (
  id bigserial PRIMARY KEY,
  payload text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cluster_event_created_idx ON cluster_event (created_at);

-- Every process keeps devices by serial number for ingest (telemetry/device-directory.ts). A change
-- of what ingest needs (serial number, tenant, site time zone, phase type, removal) is announced on
-- its own channel, whichever path made it (an edit, an import, a transfer, a cancellation), so that
-- every process drops its entry at once instead of after the cache's life.
CREATE FUNCTION device_directory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ess_device_changed', OLD.sn);
  RETURN NULL;
END $$;

CREATE TRIGGER device_directory_changed AFTER UPDATE OF sn, tenant_id, time_zone, phase_type, deleted_at ON device
  FOR EACH ROW
  WHEN (OLD.sn IS DISTINCT FROM NEW.sn OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id
     OR OLD.time_zone IS DISTINCT FROM NEW.time_zone OR OLD.phase_type IS DISTINCT FROM NEW.phase_type
     OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION device_directory_changed();

CREATE TRIGGER device_directory_removed AFTER DELETE ON device
  FOR EACH ROW EXECUTE FUNCTION device_directory_changed();
