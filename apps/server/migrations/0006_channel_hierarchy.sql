-- The channel hierarchy (DESIGN §3): manufacturer → distributor → dealer → installer company,
-- with end users (master users and sub-users) and devices hanging from it. Each organisation
-- stores its materialised path ('/1/7/12/'): a subtree is one prefix match, which is how the data
-- scope filters every list and every read by id in SQL.

CREATE TABLE organisation (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id           bigint NOT NULL REFERENCES tenant (id),
  parent_id           bigint REFERENCES organisation (id),
  kind                text NOT NULL CHECK (kind IN ('manufacturer', 'distributor', 'dealer', 'installer')),
  path                text NOT NULL,
  -- enterprise name
  name                text NOT NULL,
  authorisation_code  text,
  contact             text NOT NULL DEFAULT '',
  email               text,
  phone               text,
  -- installer companies of a distributor: also shown to the distributor's dealers
  show_under_dealers  boolean NOT NULL DEFAULT false,
  -- the enterprise account created with the organisation
  account_user_id     bigint REFERENCES sys_user (id),
  remarks             text NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  deleted_at          timestamptz,
  CHECK ((kind = 'manufacturer') = (parent_id IS NULL))
);
CREATE INDEX organisation_path_idx ON organisation (tenant_id, path text_pattern_ops);
CREATE INDEX organisation_parent_idx ON organisation (parent_id);
CREATE UNIQUE INDEX organisation_root_key ON organisation (tenant_id) WHERE kind = 'manufacturer';
CREATE UNIQUE INDEX organisation_code_key ON organisation (tenant_id, lower(authorisation_code))
  WHERE deleted_at IS NULL AND authorisation_code IS NOT NULL;

-- Accounts: back office staff belong to the manufacturer, channel staff to their organisation,
-- end users to the organisation that serves them; a sub-user names its master user.
ALTER TABLE sys_user ADD COLUMN org_id bigint REFERENCES organisation (id);
ALTER TABLE sys_user ADD COLUMN parent_user_id bigint REFERENCES sys_user (id);
ALTER TABLE sys_user ADD COLUMN contacts text NOT NULL DEFAULT '';
ALTER TABLE sys_user ADD COLUMN address text NOT NULL DEFAULT '';
CREATE INDEX sys_user_org_idx ON sys_user (org_id) WHERE deleted_at IS NULL;
CREATE INDEX sys_user_parent_idx ON sys_user (parent_user_id) WHERE deleted_at IS NULL;

-- What the data scope needs of a device: the organisation that sold it, the installer company
-- that installed it, and the end user (master user) who owns it.
ALTER TABLE device ADD COLUMN org_id bigint REFERENCES organisation (id);
ALTER TABLE device ADD COLUMN installer_org_id bigint REFERENCES organisation (id);
ALTER TABLE device ADD COLUMN owner_user_id bigint REFERENCES sys_user (id);
CREATE INDEX device_org_idx ON device (org_id);
CREATE INDEX device_installer_org_idx ON device (installer_org_id);
CREATE INDEX device_owner_user_idx ON device (owner_user_id);

-- Tenants that exist already get their manufacturer organisation, and their back office staff join it.
INSERT INTO organisation (tenant_id, kind, path, name) SELECT id, 'manufacturer', '', name FROM tenant;
UPDATE organisation SET path = '/' || id || '/' WHERE kind = 'manufacturer';
UPDATE sys_user u SET org_id = o.id FROM organisation o
 WHERE o.tenant_id = u.tenant_id AND o.kind = 'manufacturer' AND u.user_type = 0 AND u.org_id IS NULL;
