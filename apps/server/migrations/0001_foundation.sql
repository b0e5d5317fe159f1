-- Tenants, back-office accounts, roles and the sessions that sign-in issues.
-- The identity feature extends these tables; the channel hierarchy hangs off tenant.

CREATE TABLE tenant (
  id          bigint PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sys_user (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id             bigint NOT NULL REFERENCES tenant (id),
  username              text NOT NULL,
  password_hash         text NOT NULL,
  name                  text NOT NULL DEFAULT '',
  phone                 text,
  email                 text,
  -- 0 back office, 1 installer, 2 user (spec §3 User)
  user_type             smallint NOT NULL DEFAULT 0 CHECK (user_type IN (0, 1, 2)),
  -- 0 normal, 1 locked
  status                smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
  time_zone             text,
  must_change_password  boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  deleted_at            timestamptz
);
CREATE UNIQUE INDEX sys_user_username_key ON sys_user (tenant_id, lower(username)) WHERE deleted_at IS NULL;

CREATE TABLE sys_role (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  code         text NOT NULL,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  builtin      boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, code)
);

CREATE TABLE sys_role_permission (
  role_id     bigint NOT NULL REFERENCES sys_role (id) ON DELETE CASCADE,
  permission  text NOT NULL,
  PRIMARY KEY (role_id, permission)
);

CREATE TABLE sys_user_role (
  user_id  bigint NOT NULL REFERENCES sys_user (id) ON DELETE CASCADE,
  role_id  bigint NOT NULL REFERENCES sys_role (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);

-- Opaque tokens are stored only as SHA-256 digests. A refresh rotates both tokens inside one
-- family; reusing a rotated refresh token revokes the whole family.
CREATE TABLE auth_session (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  family_id           uuid NOT NULL,
  tenant_id           bigint NOT NULL REFERENCES tenant (id),
  user_id             bigint NOT NULL REFERENCES sys_user (id) ON DELETE CASCADE,
  access_hash         bytea NOT NULL UNIQUE,
  refresh_hash        bytea NOT NULL UNIQUE,
  access_expires_at   timestamptz NOT NULL,
  refresh_expires_at  timestamptz NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  rotated_at          timestamptz,
  revoked_at          timestamptz,
  ip                  text
);
CREATE INDEX auth_session_user_idx ON auth_session (user_id) WHERE revoked_at IS NULL;
CREATE INDEX auth_session_family_idx ON auth_session (family_id);
