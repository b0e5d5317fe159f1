-- Every write or command that waits on a device ends by a deadline stored in its row, which a sweep
-- that any console process may run enforces (docs/ARCHITECTURE.md "Remote settings"): a record in
-- flight when its console was killed no longer stays "sent" for good, and a bulk operation whose
-- console stopped is carried on by another process (or the same one after its restart).

-- Request ids of cmd/write and cmd/command orders: unique across processes and restarts, kept in
-- the record, so whichever process receives the device's acknowledgement can match it.
CREATE SEQUENCE device_write_request_seq MINVALUE 1 MAXVALUE 4294967295 CYCLE;

ALTER TABLE device_write ADD COLUMN request_id bigint;
-- While sent: when the record ends timed out if the device has not answered.
ALTER TABLE device_write ADD COLUMN deadline_at timestamptz;
CREATE INDEX device_write_sent_idx ON device_write (deadline_at) WHERE state = 'sent';
CREATE INDEX device_write_request_idx ON device_write (request_id) WHERE request_id IS NOT NULL;
-- Records left sent by a console stopped before this version end at the next sweep; queued ones
-- without an expiry get the default one.
UPDATE device_write SET deadline_at = coalesce(sent_at, now()) WHERE state = 'sent';
UPDATE device_write SET expires_at = created_at + interval '1 day' WHERE state = 'queued' AND expires_at IS NULL;

-- Bulk operations: whether devices offline at their turn keep their record queued (else it is
-- refused), and until when the process sending its records holds it; past that any process may
-- take over the records still queued.
ALTER TABLE device_bulk_operation ADD COLUMN queue_if_offline boolean NOT NULL DEFAULT true;
ALTER TABLE device_bulk_operation ADD COLUMN runner_until timestamptz;
