-- Daily energy is merged from the readings of many ingest batches at once (every few seconds), not
-- once per batch. Each batch notes here, in the transaction that stores its readings, which
-- readings it stored; the merge that takes them into device_energy_daily removes the note in its
-- own transaction. A note left behind (the server stopped between the two) is merged on start.
CREATE TABLE telemetry_rollup_pending (
  id         uuid PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  device_ids bigint[] NOT NULL,
  ts_ms      bigint[] NOT NULL
);
