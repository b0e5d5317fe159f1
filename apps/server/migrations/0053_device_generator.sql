-- Generator settings of a device (the generator page): switched on or off, rated power, the share
-- of it the system may draw, control by hand or by battery SOC with its time slots, where its
-- output goes and how much of it charges the battery. One row per device; deleting drops it.
CREATE TABLE device_generator (
  device_id         bigint PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
  switched_on       boolean NOT NULL,
  rated_power_kw    real NOT NULL,
  available_pct     real NOT NULL,
  control_mode      text NOT NULL CHECK (control_mode IN ('manual', 'soc')),
  soc_lower         real,
  soc_upper         real,
  -- [{start: "HH:mm", end: "HH:mm"}], checked by the shared rules (no conflicts).
  slots             jsonb NOT NULL DEFAULT '[]',
  output_mode       smallint NOT NULL,
  charge_power_kw   real NOT NULL,
  updated_by        bigint REFERENCES sys_user (id),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
