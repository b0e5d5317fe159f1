-- What each audience may view or set of the register catalogue, where administrators changed the
-- catalogue's defaults (the display-configuration screen). A row overrides the default for one
-- register and audience; no row means the catalogue's default. Setting implies viewing.
CREATE TABLE register_visibility (
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  register_id  text NOT NULL,
  audience     text NOT NULL CHECK (audience IN ('backOffice', 'installer', 'consumer')),
  can_view     boolean NOT NULL,
  can_set      boolean NOT NULL,
  updated_by   bigint REFERENCES sys_user (id),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (can_view OR NOT can_set),
  PRIMARY KEY (tenant_id, register_id, audience)
);
