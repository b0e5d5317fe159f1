-- Account deletion requests (spec §3 Cancellation record) and their review. Approval deletes the
-- account for good: the account row is anonymised, and the request keeps only masked contact data.

CREATE TABLE account_cancellation (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  user_id      bigint NOT NULL REFERENCES sys_user (id),
  -- what the account was called when it asked
  username     text NOT NULL,
  email        text,
  ip           text,
  -- 0 several accounts (release the e-mail address), 1 no longer wanted, 2 other
  type         smallint NOT NULL CHECK (type IN (0, 1, 2)),
  reason       text NOT NULL DEFAULT '',
  -- 0 pending, 1 approved, 2 refused
  status       smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  remarks      text NOT NULL DEFAULT '',
  reviewer_id  bigint REFERENCES sys_user (id),
  reviewed_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_cancellation_tenant_idx ON account_cancellation (tenant_id, created_at DESC);
CREATE UNIQUE INDEX account_cancellation_pending_key ON account_cancellation (user_id) WHERE status = 0;
