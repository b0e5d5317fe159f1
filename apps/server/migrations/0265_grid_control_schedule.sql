-- A site's control schedule (packages/domain grid/control-schedule.ts). The event fields the
-- schedule needs are kept with each command: when the utility created it (newer wins at equal
-- primacy), when its status was set (a cancellation with randomisation ends from there) and its
-- randomisation windows (s). A command of a program no longer assigned to the site (CSIP-AUS P-02)
-- is retired: it no longer counts and gets no more responses; listed again, it counts again.
ALTER TABLE grid_command ADD COLUMN creation_time timestamptz;
ALTER TABLE grid_command ADD COLUMN event_status_at timestamptz;
ALTER TABLE grid_command ADD COLUMN randomize_start integer;
ALTER TABLE grid_command ADD COLUMN randomize_duration integer;
ALTER TABLE grid_command ADD COLUMN retired_at timestamptz;

-- The control in force at the site, as last computed, so a restarted console or one cut off from
-- the utility carries on from it: the merged DERControlBase, its source (event or default, mRID,
-- program, primacy), since when and until when (null: until further notice). Null control: none.
ALTER TABLE grid_site ADD COLUMN active_control jsonb;
ALTER TABLE grid_site ADD COLUMN active_source jsonb;
ALTER TABLE grid_site ADD COLUMN active_since timestamptz;
ALTER TABLE grid_site ADD COLUMN active_until timestamptz;
