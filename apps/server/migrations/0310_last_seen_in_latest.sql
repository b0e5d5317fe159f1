-- A reporting device's last-seen time is kept where the latest-state write already goes: every
-- ingest batch rewrites each reporting device's device_latest row (a heap-only update on its
-- half-empty page), so the receive time rides along for free. Before, presence also rewrote the
-- device row itself every 30 s per reporting device (3,300 rows a second with 100,000 devices, a
-- wide row with eleven indexes). device.last_seen_at stays for what arrives outside readings
-- (status, replies, events, refused frames) and for the online transitions; a device's last seen
-- is the later of the two (telemetry/last-seen.ts).
-- seen_at moves with every reading received, also one older than the stored one: a device's
-- clock is a claim, and a device whose clock went back is still heard. ts, seq and received_at
-- (the newest reading's own receive time) only move forward, as before.
ALTER TABLE device_latest ADD COLUMN seen_at timestamptz;
UPDATE device_latest SET seen_at = received_at;
