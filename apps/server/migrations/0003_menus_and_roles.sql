-- The server-driven menu (spec §3 Menu item) and what the seed applied once.

CREATE TABLE sys_menu (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  parent_id    bigint REFERENCES sys_menu (id),
  menu_type    text NOT NULL CHECK (menu_type IN ('left', 'top', 'button')),
  -- label is zh-CN (the source language); the others as the spec names them, plus es and ja
  label        text NOT NULL,
  name_en      text NOT NULL DEFAULT '',
  name_it      text NOT NULL DEFAULT '',
  name_es      text NOT NULL DEFAULT '',
  name_ja      text NOT NULL DEFAULT '',
  path         text NOT NULL DEFAULT '',
  component    text,
  icon         text,
  permission   text,
  sort         integer NOT NULL DEFAULT 0,
  keep_alive   boolean NOT NULL DEFAULT false,
  roles        text[] NOT NULL DEFAULT '{}',
  query        jsonb,
  -- the key of the default menu item it was seeded from
  builtin_key  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sys_menu_parent_idx ON sys_menu (tenant_id, parent_id);
CREATE UNIQUE INDEX sys_menu_builtin_key ON sys_menu (tenant_id, builtin_key) WHERE builtin_key IS NOT NULL;

-- Default menus, roles and role permissions are applied once per tenant: what an administrator
-- later deletes or revokes stays deleted across restarts.
CREATE TABLE seed_applied (
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  item        text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, item)
);

-- The account type a role is meant for (0 back office, 1 channel, 2 end user).
ALTER TABLE sys_role ADD COLUMN user_type smallint NOT NULL DEFAULT 0 CHECK (user_type IN (0, 1, 2));

ALTER TABLE sys_user ADD COLUMN password_changed_at timestamptz;
ALTER TABLE sys_user ADD COLUMN last_login_at timestamptz;
ALTER TABLE sys_user ADD COLUMN last_login_ip text;
