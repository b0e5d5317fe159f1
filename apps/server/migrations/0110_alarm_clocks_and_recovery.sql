-- Alarms hardened (issue 15): no device clock holds an alarm open, alarm observations survive a
-- database outage and a restart, storms are counted from the database by every process alike.

-- The console's own clock for the clear hold: when the condition was last seen active and when it
-- was first seen clear after that (clearing_seen_at, already there), whatever the device's times
-- say; and when the alarm was closed on that clock (an observation received before it cannot
-- reopen it). NULL in rows from before: read as created_at and cleared_at.
ALTER TABLE device_alarm ADD COLUMN active_seen_at timestamptz;
ALTER TABLE device_alarm ADD COLUMN closed_seen_at timestamptz;
-- When the console received what opened the alarm (however long detection took after): storm
-- windows count alarms by it.
ALTER TABLE device_alarm ADD COLUMN opened_seen_at timestamptz;
CREATE INDEX device_alarm_code_opened_idx ON device_alarm (code, opened_seen_at);

-- Each ingest batch notes its readings here in the transaction that stores them (as it does for
-- the daily energy); alarm detection removes the note in the transaction that applies them. A note
-- left by a database outage or a stop is applied from the history by the recovery pass.
CREATE TABLE alarm_detection_pending (
  id          uuid PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now(),
  device_ids  bigint[] NOT NULL,
  ts_ms       bigint[] NOT NULL,
  attempts    smallint NOT NULL DEFAULT 0
);
CREATE INDEX alarm_detection_pending_created_idx ON alarm_detection_pending (created_at);

-- Alarm events stored but not yet applied to the alarms (rows from before count as applied).
ALTER TABLE device_alarm_event ADD COLUMN detected boolean NOT NULL DEFAULT true;
ALTER TABLE device_alarm_event ALTER COLUMN detected SET DEFAULT false;
ALTER TABLE device_alarm_event ADD COLUMN detect_attempts smallint NOT NULL DEFAULT 0;
-- Sent late by the device (kept while it was offline).
ALTER TABLE device_alarm_event ADD COLUMN buffered boolean NOT NULL DEFAULT false;
CREATE INDEX device_alarm_event_pending_idx ON device_alarm_event (received_at) WHERE NOT detected;

-- Reminder storms: the window each tenant's storm of one topic (`alarm:{code}`, `online`,
-- `offline`) started, shared by every console process so that all count the same window.
CREATE TABLE reminder_storm_window (
  tenant_id   bigint NOT NULL REFERENCES tenant (id) ON DELETE CASCADE,
  topic       text NOT NULL,
  started_at  timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, topic)
);
-- On/off-line storm counts: devices that changed status in a window.
CREATE INDEX device_online_log_at_idx ON device_online_log (at);
