-- What a device reports of itself beside what staff typed (packages/domain devices/identity.ts):
-- model name, rated power and country code from its readings, battery chemistry (and the country
-- code setting) from its settings as page answers and acknowledged writes report them. Ingest
-- writes them only when they change, so a reporting fleet costs a write per change, not per reading.
-- No CHECK constraints: the values are checked against the catalogue before they are written, and
-- a refused write here would hold a whole ingest batch.
ALTER TABLE device ADD COLUMN reported_model text;
ALTER TABLE device ADD COLUMN reported_rated_power real;
ALTER TABLE device ADD COLUMN reported_country_code smallint;
-- Enum batteryChemistry: 0 lead acid, 1 lithium (the device's battery type setting).
ALTER TABLE device ADD COLUMN battery_chemistry smallint;
-- When the console last asked the device for the settings page holding its battery chemistry
-- (modules/telemetry/identity-reader.ts): once an hour at most, by one process.
ALTER TABLE device ADD COLUMN identity_read_at timestamptz;
-- Device time of the reading that last changed the reported values: an older reading (sent late
-- after an outage) does not undo a newer one.
ALTER TABLE device ADD COLUMN identity_reported_at timestamptz;

-- What the console shows, lists, filters and sorts by: the device's report, else what staff typed
-- (domain shownIdentityValue). Stored, so the list filters on plain indexed columns.
ALTER TABLE device ADD COLUMN shown_model text GENERATED ALWAYS AS (coalesce(reported_model, model)) STORED;
ALTER TABLE device ADD COLUMN shown_rated_power real GENERATED ALWAYS AS (coalesce(reported_rated_power, rated_power)) STORED;
ALTER TABLE device ADD COLUMN shown_country_code smallint
  GENERATED ALWAYS AS (coalesce(reported_country_code, country_code)) STORED;

-- Three-phase model codes are now the names the inverters report (H3-10K …); T10K … stay accepted
-- as aliases in forms and imports.
UPDATE device SET model = 'H3-' || substr(model, 2) WHERE model IN ('T10K', 'T12K', 'T15K', 'T20K');

-- The battery chemistry the devices reported so far.
UPDATE device d SET battery_chemistry = (v.value #>> '{}')::smallint
  FROM device_setting_value v
 WHERE v.device_id = d.id AND v.key IN ('TP_0X03_1047', 'batteryTypeSet') AND v.value #>> '{}' IN ('0', '1');

-- The devices whose battery chemistry is still unknown, for the identity reader (small once known).
CREATE INDEX device_identity_unread_idx ON device (identity_read_at NULLS FIRST, id)
  WHERE deleted_at IS NULL AND battery_chemistry IS NULL;

-- The list's model choice is an exact match, paged by creation time like the unfiltered list.
CREATE INDEX device_shown_model_idx ON device (shown_model, created_at DESC, id DESC) WHERE deleted_at IS NULL;
