-- Remote settings and commands: every write sent to a device is a durable record (who, what,
-- old → new, when, and how it ended), bulk operations group them, and the console keeps the
-- settings each device last reported so a change can show its old value and be checked against
-- the device's other settings (spec §5 cross-field rules).

-- A device under an external VPP operator's control cannot be operated by its user (spec §6).
ALTER TABLE device ADD COLUMN IF NOT EXISTS vpp_controlled boolean NOT NULL DEFAULT false;

CREATE TABLE device_bulk_operation (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  created_by  bigint REFERENCES sys_user (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- What was sent to every device: {values: {...}} or {command: n}, and the filter that chose them.
  payload     jsonb NOT NULL,
  filter      jsonb NOT NULL,
  total       integer NOT NULL
);

-- state: queued (waiting for an offline device to return, or for its turn in a bulk operation),
-- sent (published, waiting for the device's answer), acknowledged, refused (by the console's
-- rules at send time or by the device: `refusal` holds the code), timed_out (no answer in time,
-- or queued past its expiry). Never turned into success after a time-out.
CREATE TABLE device_write (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id      bigint NOT NULL REFERENCES tenant (id),
  device_id      bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  bulk_id        bigint REFERENCES device_bulk_operation (id) ON DELETE SET NULL,
  kind           text NOT NULL CHECK (kind IN ('setting', 'command')),
  -- Settings: [{key, old, new}] in engineering units (old null when unknown); commands: [].
  changes        jsonb NOT NULL DEFAULT '[]',
  command        smallint,
  state          text NOT NULL CHECK (state IN ('queued', 'sent', 'acknowledged', 'refused', 'timed_out')),
  refusal        text,
  refusal_key    text,
  attempts       integer NOT NULL DEFAULT 0,
  created_by     bigint REFERENCES sys_user (id),
  created_by_name text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  sent_at        timestamptz,
  finished_at    timestamptz,
  -- A queued write gives up (timed_out) if the device has not returned by then.
  expires_at     timestamptz,
  CHECK ((kind = 'command') = (command IS NOT NULL))
);
CREATE INDEX device_write_device_idx ON device_write (device_id, id DESC);
CREATE INDEX device_write_queued_idx ON device_write (device_id, id) WHERE state = 'queued';
CREATE INDEX device_write_bulk_idx ON device_write (bulk_id) WHERE bulk_id IS NOT NULL;

-- What each device last reported for its settings (page answers, acknowledged writes).
CREATE TABLE device_setting_value (
  device_id   bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  key         text NOT NULL,
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, key)
);
