-- Self-checks: a check whose device never reports its end is failed with cause "timeout" at its
-- deadline (a later report does not reopen it).
ALTER TABLE device_self_check ADD COLUMN deadline_at timestamptz;
ALTER TABLE device_self_check ADD COLUMN cause text CHECK (cause IN ('timeout'));
UPDATE device_self_check SET deadline_at = started_at + interval '30 minutes' WHERE state = 1;
CREATE INDEX device_self_check_running_idx ON device_self_check (deadline_at) WHERE state = 1;
