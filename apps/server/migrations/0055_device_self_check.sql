-- Device self-checks: started from the console (the self-test register written through a change
-- record), followed through the device's self-check state (0 none, 1 checking, 2 failed, 3 done)
-- in its readings, kept with their outcome for the report.
CREATE TABLE device_self_check (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id        bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  write_id         bigint REFERENCES device_write (id) ON DELETE SET NULL,
  started_by_name  text NOT NULL,
  started_at       timestamptz NOT NULL DEFAULT now(),
  state            smallint NOT NULL CHECK (state IN (0, 1, 2, 3)),
  finished_at      timestamptz
);
CREATE INDEX device_self_check_device_idx ON device_self_check (device_id, id DESC);
