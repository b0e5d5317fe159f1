-- The operation log: every change through the API (written by one hook) and the console's
-- uploaded error logs (spec §3 Log, Local error log entry).

CREATE TABLE sys_log (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id      bigint NOT NULL REFERENCES tenant (id),
  log_type       text NOT NULL CHECK (log_type IN ('operation', 'client-error')),
  operator_id    bigint REFERENCES sys_user (id) ON DELETE SET NULL,
  operator_name  text NOT NULL DEFAULT '',
  -- the route's id in the API registry (e.g. users.save), or client.error
  operation      text NOT NULL,
  method         text NOT NULL DEFAULT '',
  request_uri    text NOT NULL DEFAULT '',
  -- query and body with passwords and tokens masked
  params         jsonb,
  status         integer,
  error_code     text,
  duration_ms    integer NOT NULL DEFAULT 0,
  ip             text,
  user_agent     text,
  message        text,
  stack          text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sys_log_tenant_time_idx ON sys_log (tenant_id, created_at DESC);
CREATE INDEX sys_log_operator_idx ON sys_log (operator_id);
