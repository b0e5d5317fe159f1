-- Faults and alarms (issue 8): the fault catalogue and alarm control per tenant, device alarms with
-- their life cycle, and each user's notification preferences.

-- The fault catalogue: one row per code and system type (1 single, 2 three phase); the texts of all
-- five languages in one JSON object {locale: {info, causes, remedy}}.
CREATE TABLE fault_code (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  code         integer NOT NULL CHECK (code BETWEEN 1 AND 65535),
  level        smallint NOT NULL CHECK (level IN (1, 2, 3)),
  system_type  smallint NOT NULL CHECK (system_type IN (1, 2)),
  category     text,
  texts        jsonb NOT NULL,
  display      boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, code, system_type)
);

-- Alarm control: which codes are shown and pushed (a code without a row follows its catalogue
-- display flag).
CREATE TABLE alarm_control (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  code         integer NOT NULL CHECK (code BETWEEN 1 AND 65535),
  name         text NOT NULL,
  description  text NOT NULL,
  display      boolean NOT NULL DEFAULT true,
  sort         integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, code)
);

-- Device alarms. An alarm opens once per device and code (the partial unique index), carries its
-- flap count, and closes when its condition has stayed clear for the hold time: `clearing_since`
-- is the device time the condition cleared, `clearing_seen_at` the server time it was seen clear.
CREATE TABLE device_alarm (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id        bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  code             integer NOT NULL,
  level            smallint NOT NULL CHECK (level IN (1, 2, 3)),
  system_type      smallint NOT NULL CHECK (system_type IN (1, 2)),
  occurred_at      timestamptz NOT NULL,
  cleared_at       timestamptz,
  clearing_since   timestamptz,
  clearing_seen_at timestamptz,
  last_ts          timestamptz NOT NULL,
  flap_count       integer NOT NULL DEFAULT 0,
  hidden           boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX device_alarm_open_key ON device_alarm (device_id, code) WHERE cleared_at IS NULL;
CREATE INDEX device_alarm_device_idx ON device_alarm (device_id, occurred_at DESC);
CREATE INDEX device_alarm_time_idx ON device_alarm (occurred_at DESC);
CREATE INDEX device_alarm_clearing_idx ON device_alarm (clearing_seen_at) WHERE cleared_at IS NULL AND clearing_seen_at IS NOT NULL;

-- Device status (0 normal, 1 maintenance, 2 offline, 3 error): 3 while an error-level alarm is open.
ALTER TABLE device ADD COLUMN IF NOT EXISTS device_status smallint NOT NULL DEFAULT 0;

-- Which alarm levels, and whether on/off-line events, reach a user as live reminders.
CREATE TABLE alarm_preference (
  user_id        bigint PRIMARY KEY REFERENCES sys_user (id) ON DELETE CASCADE,
  levels         smallint[] NOT NULL DEFAULT '{1,2,3}',
  online_events  boolean NOT NULL DEFAULT true,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
