-- Device management (issue 6): what the device list, form, import, binding and details need of a
-- device, and a minimal electricity tariff for revenue figures.

-- Model code (packages/domain DEVICE_MODELS), the registration form's fields (spec §3 Device).
ALTER TABLE device ADD COLUMN model text;
ALTER TABLE device ADD COLUMN remarks text NOT NULL DEFAULT '';
-- 0 WiFi, 1 4G (enum dongleType).
ALTER TABLE device ADD COLUMN dongle_type smallint CHECK (dongle_type IN (0, 1));
ALTER TABLE device ADD COLUMN machine_type text NOT NULL DEFAULT '';
-- 0 450V, 1 800V, 2 LESY (enum hvBatteryType).
ALTER TABLE device ADD COLUMN battery_type smallint CHECK (battery_type IN (0, 1, 2));
-- enum countryCodeFilter (0..14); NMI and grid company for Australian sites (code 3).
ALTER TABLE device ADD COLUMN country_code smallint CHECK (country_code BETWEEN 0 AND 14);
ALTER TABLE device ADD COLUMN rated_power real CHECK (rated_power >= 0);
ALTER TABLE device ADD COLUMN load_capacity real CHECK (load_capacity >= 0);
ALTER TABLE device ADD COLUMN nmi text NOT NULL DEFAULT '';
ALTER TABLE device ADD COLUMN grid_company text NOT NULL DEFAULT '';
-- Status set on the device (0 normal, 1 maintenance, 3 error); "offline" (2) comes from online_status.
ALTER TABLE device ADD COLUMN status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 3));
-- Firmware versions: communication stick, MCU, DSP, battery.
ALTER TABLE device ADD COLUMN dongle_version text NOT NULL DEFAULT '';
ALTER TABLE device ADD COLUMN mcu_version text NOT NULL DEFAULT '';
ALTER TABLE device ADD COLUMN dsp_version text NOT NULL DEFAULT '';
ALTER TABLE device ADD COLUMN battery_version text NOT NULL DEFAULT '';
-- When the user was bound, and when the installer was bound (the installation time).
ALTER TABLE device ADD COLUMN user_bound_at timestamptz;
ALTER TABLE device ADD COLUMN installed_at timestamptz;

-- The list pages by creation time and filters within the tenant.
CREATE INDEX device_tenant_created_idx ON device (tenant_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX device_sn_pattern_idx ON device (sn text_pattern_ops) WHERE deleted_at IS NULL;

-- The electricity tariff that revenue figures use: a user's own (user_id) or the tenant's default
-- (user_id NULL). Flat buying and selling prices per kWh; time-of-use periods (spec §5) belong to the
-- electricity price settings, which extend this table.
CREATE TABLE electricity_tariff (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  user_id     bigint REFERENCES sys_user (id) ON DELETE CASCADE,
  currency    text NOT NULL DEFAULT 'EUR',
  buy_price   numeric(12, 7) NOT NULL CHECK (buy_price >= 0 AND buy_price < 100),
  sell_price  numeric(12, 7) NOT NULL CHECK (sell_price >= 0 AND sell_price < 100),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX electricity_tariff_user_key ON electricity_tariff (tenant_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX electricity_tariff_default_key ON electricity_tariff (tenant_id) WHERE user_id IS NULL;
