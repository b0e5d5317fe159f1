-- The repeat guard (http/request-guards.ts) across the console's processes: a digest of each
-- change request (caller, route, content) and until when an identical one answers "too frequent".
-- Unlogged: a moment's memory, not worth a WAL record; lost with a crash, which only lets one
-- repeated request through.
CREATE UNLOGGED TABLE repeat_guard (
  key   text PRIMARY KEY,
  until timestamptz NOT NULL
);
