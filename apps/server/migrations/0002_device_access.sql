-- The minimal device record and its broker credentials. Device management and telemetry
-- extend the device table; every device authenticates to the broker with its own secret.

CREATE TABLE device (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  sn          text NOT NULL,
  name        text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz,
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX device_sn_key ON device (sn) WHERE deleted_at IS NULL;

-- One broker secret per device (argon2id is too slow for a connect storm; the secret is 256
-- random bits, so a salted SHA-256 digest is enough).
CREATE TABLE device_credential (
  device_id    bigint PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
  secret_salt  bytea NOT NULL,
  secret_hash  bytea NOT NULL,
  issued_at    timestamptz NOT NULL DEFAULT now()
);
