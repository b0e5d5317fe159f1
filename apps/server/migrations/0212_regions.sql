-- Address management (spec §2, §3 Address, §4 address grade): country (0) → region (1) →
-- residence (2), names per language; end-user and installer addresses choose from it. A child is
-- one grade below its parent, and a region with children cannot be deleted.
CREATE TABLE region (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  parent_id   bigint REFERENCES region (id),
  grade       smallint NOT NULL CHECK (grade IN (0, 1, 2)),
  code        text NOT NULL,
  name        jsonb NOT NULL,
  sort        integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((grade = 0) = (parent_id IS NULL))
);
CREATE UNIQUE INDEX region_code_key ON region (tenant_id, lower(code));
CREATE INDEX region_children ON region (tenant_id, parent_id, sort, id);
