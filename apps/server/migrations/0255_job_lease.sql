-- Leases of the jobs that must run in exactly one console process (cluster/job-lease.ts). The
-- holder renews its row with the database's clock; a row whose expires_at has passed may be
-- taken by another process, which increments token (the fencing token). Release expires the row
-- instead of deleting it, so the token keeps growing across hand-overs.
CREATE TABLE job_lease (
  job text PRIMARY KEY,
  holder text NOT NULL,
  token bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
