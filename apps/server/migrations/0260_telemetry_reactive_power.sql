-- Reactive power (var) as key quantities (packages/domain KEY_QUANTITIES): the grid client posts
-- its interval averages to the site and DER mirrors. Added to the partitioned parent, so every
-- daily partition, existing or made later, has them; readings stored before stay null.
ALTER TABLE telemetry_history ADD COLUMN grid_reactive_power real;
ALTER TABLE telemetry_history ADD COLUMN inverter_reactive_power real;
