-- Presence rewrites a device's last_seen_at every 30 s while it reports: 3,300 rows a second with
-- 100,000 devices. With last_seen_at in an index every such write was a new row version entered
-- into all of the device table's indexes (two of them trigram GIN), the largest PostgreSQL cost
-- of ingest with a large fleet. Without it, and with room left on each page, the write stays on
-- its page (a heap-only update) and touches no index. The timeout sweep still finds the online
-- devices through online_status and checks their last_seen_at on the row.
DROP INDEX IF EXISTS device_online_idx;
CREATE INDEX device_online_idx ON device (online_status) WHERE deleted_at IS NULL;
ALTER TABLE device SET (fillfactor = 80);
-- Every daily-energy merge also rewrites the running totals of each device it merged: room on
-- the page lets those rewrites stay on it as well.
ALTER TABLE device_energy_total SET (fillfactor = 50);
