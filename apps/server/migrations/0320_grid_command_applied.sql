-- The centre's mode counts (spec §3: regular, sell, emergency, pure PV) count the controls that
-- were applied at the site, not every control received: an event once it started (or was answered
-- started), a default control once it was the site's control in force. A control received and
-- cancelled, superseded or withdrawn before it took effect is not counted.
ALTER TABLE grid_command ADD COLUMN applied_at timestamptz;

-- Before now: events answered started or after they started, and the defaults in force.
UPDATE grid_command SET applied_at = coalesce(start_at, received_at)
 WHERE kind = 1 AND response_status IN (2, 3, 4, 8, 10);
UPDATE grid_command c SET applied_at = s.active_since
  FROM grid_site s
 WHERE c.site_id = s.id AND c.applied_at IS NULL AND s.active_source->>'mrid' = c.mrid;
