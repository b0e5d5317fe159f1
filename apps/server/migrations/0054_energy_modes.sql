-- Mode management (spec §2/§3 Mode): named operating modes an installation can switch between,
-- with their charge / sell / discharge switches, SOC limits and the periods of the day they cover
-- (all of it, spec §5). Switches of a device's system mode are its change records of the mode
-- register (device_write), listed as mode-switch records.
CREATE TABLE energy_mode (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id          bigint NOT NULL REFERENCES tenant (id),
  code               text NOT NULL,
  name               text NOT NULL,
  description        text NOT NULL,
  -- 0 disabled, 1 enabled
  state              smallint NOT NULL DEFAULT 1 CHECK (state IN (0, 1)),
  sort               integer NOT NULL DEFAULT 0,
  charge_enabled     boolean NOT NULL DEFAULT false,
  sell_enabled       boolean NOT NULL DEFAULT false,
  discharge_enabled  boolean NOT NULL DEFAULT false,
  charge_soc         smallint NOT NULL CHECK (charge_soc BETWEEN 0 AND 100),
  sell_soc           smallint NOT NULL CHECK (sell_soc BETWEEN 0 AND 100),
  discharge_off_soc  smallint NOT NULL CHECK (discharge_off_soc BETWEEN 0 AND 100),
  -- [{start: "HH:mm", end: "HH:mm"}] covering 00:00–23:59
  periods            jsonb NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz
);
CREATE UNIQUE INDEX energy_mode_code_key ON energy_mode (tenant_id, lower(code)) WHERE deleted_at IS NULL;
