-- What a self-check tested and each item's result with its values (threshold and trip time set
-- and measured), kept when the check ends; and the device's own time of its newest reading when
-- the check started, so the readings of the check are told by the device's clock alone.
ALTER TABLE device_self_check ADD COLUMN from_reading_ts timestamptz;
ALTER TABLE device_self_check ADD COLUMN items jsonb;
