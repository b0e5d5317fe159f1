-- Telemetry: what devices report and what the console derives from it (docs/device-protocol.md).
-- Key quantities (packages/domain KEY_QUANTITIES) are typed columns for curves and rollups; the
-- rest of a reading stays in its register blocks, the frame's words as the device sent them.

ALTER TABLE device ADD COLUMN IF NOT EXISTS time_zone text;
-- 1 single phase, 2 three phase (the original console's tpType); null until known.
ALTER TABLE device ADD COLUMN IF NOT EXISTS phase_type smallint CHECK (phase_type IN (1, 2));
-- 0 offline, 1 online, 2 upgrading (spec §4).
ALTER TABLE device ADD COLUMN IF NOT EXISTS online_status smallint NOT NULL DEFAULT 0 CHECK (online_status IN (0, 1, 2));
ALTER TABLE device ADD COLUMN IF NOT EXISTS online_changed_at timestamptz;
CREATE INDEX IF NOT EXISTS device_online_idx ON device (online_status, last_seen_at) WHERE deleted_at IS NULL;

-- One row per reading, partitioned by day of the reading (UTC); partitions are made ahead by the
-- server. Unique per device and reading time, so a redelivered frame is stored once.
CREATE TABLE telemetry_history (
  device_id             bigint NOT NULL,
  ts                    timestamptz NOT NULL,
  seq                   bigint NOT NULL,
  pv_power              real,
  load_power            real,
  battery_power         real,
  grid_power            real,
  generator_power       real,
  inverter_power        real,
  battery_soc           real,
  battery_soh           real,
  system_state          smallint,
  system_mode           smallint,
  battery_status        smallint,
  grid_voltage          real,
  grid_frequency        real,
  battery_voltage       real,
  battery_current       real,
  inverter_temperature  real,
  battery_temperature   real,
  pv_today              real,
  pv_total              double precision,
  load_today            real,
  load_total            double precision,
  sell_today            real,
  sell_total            double precision,
  buy_today             real,
  buy_total             double precision,
  charge_today          real,
  charge_total          double precision,
  discharge_today       real,
  discharge_total       double precision,
  -- The frame's block section (format 1) as the device sent it, zero runs packed
  -- (packages/contracts zero-runs.ts): about 500 bytes for a full three-phase frame.
  blocks                bytea NOT NULL,
  -- Registers whose value failed validation: kept in the words as sent, never shown as readings.
  invalid               text[]
) PARTITION BY RANGE (ts);
CREATE UNIQUE INDEX telemetry_history_device_ts ON telemetry_history (device_id, ts);

-- The newest reading of each device: a pointer to its history row, moved forward only. Small on
-- purpose: it is rewritten with every frame.
CREATE TABLE device_latest (
  device_id    bigint PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
  ts           timestamptz NOT NULL,
  seq          bigint NOT NULL,
  received_at  timestamptz NOT NULL
);

-- On/off-line transitions. reason: message (a frame or status arrived), will (the broker
-- published the device's last will), status (the device said offline), timeout (silent too
-- long), upgrade (firmware upgrade started or ended).
CREATE TABLE device_online_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id   bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  at          timestamptz NOT NULL,
  status      smallint NOT NULL CHECK (status IN (0, 1, 2)),
  reason      text NOT NULL CHECK (reason IN ('message', 'will', 'status', 'timeout', 'upgrade'))
);
CREATE INDEX device_online_log_device_idx ON device_online_log (device_id, at DESC);

-- Energy per device and local day (the device's time zone): the device's daily counters at the
-- day's last reading, and its lifetime totals at the first and last reading. Merging keeps the
-- earliest first and the latest last reading, so a repeated reading changes nothing.
CREATE TABLE device_energy_daily (
  device_id      bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  day            date NOT NULL,
  first_ts       timestamptz NOT NULL,
  last_ts        timestamptz NOT NULL,
  pv_day_last            real,
  pv_total_first         double precision,
  pv_total_last          double precision,
  load_day_last          real,
  load_total_first       double precision,
  load_total_last        double precision,
  sell_day_last          real,
  sell_total_first       double precision,
  sell_total_last        double precision,
  buy_day_last           real,
  buy_total_first        double precision,
  buy_total_last         double precision,
  charge_day_last        real,
  charge_total_first     double precision,
  charge_total_last      double precision,
  discharge_day_last     real,
  discharge_total_first  double precision,
  discharge_total_last   double precision,
  PRIMARY KEY (device_id, day)
);

-- kWh per device and day: the device's own daily counter, or the growth of its total counter
-- when the daily one is missing.
CREATE VIEW device_energy_day AS
SELECT device_id, day, first_ts, last_ts,
  CASE WHEN pv_day_last IS NOT NULL THEN pv_day_last::double precision
       ELSE greatest(pv_total_last - pv_total_first, 0) END AS pv,
  CASE WHEN load_day_last IS NOT NULL THEN load_day_last::double precision
       ELSE greatest(load_total_last - load_total_first, 0) END AS load,
  CASE WHEN sell_day_last IS NOT NULL THEN sell_day_last::double precision
       ELSE greatest(sell_total_last - sell_total_first, 0) END AS sell,
  CASE WHEN buy_day_last IS NOT NULL THEN buy_day_last::double precision
       ELSE greatest(buy_total_last - buy_total_first, 0) END AS buy,
  CASE WHEN charge_day_last IS NOT NULL THEN charge_day_last::double precision
       ELSE greatest(charge_total_last - charge_total_first, 0) END AS charge,
  CASE WHEN discharge_day_last IS NOT NULL THEN discharge_day_last::double precision
       ELSE greatest(discharge_total_last - discharge_total_first, 0) END AS discharge
FROM device_energy_daily;

-- Alarm events as devices report them; the alarm feature opens and closes alarms from these.
CREATE TABLE device_alarm_event (
  device_id    bigint NOT NULL REFERENCES device (id) ON DELETE CASCADE,
  ts           timestamptz NOT NULL,
  register     text NOT NULL,
  bit          smallint NOT NULL,
  state        text NOT NULL CHECK (state IN ('occur', 'disappear')),
  code         integer,
  level        smallint,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, ts, register, bit, state)
);
