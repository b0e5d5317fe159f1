-- Banners of the app's home and guide pages of its first start (original: /admin/banner/*,
-- /admin/guide/page/*): a picture of the media store, an optional link, one language, terminal
-- 0 app, 1 web, 2 both; state 0 draft, 1 published; shown by sort order.
CREATE TABLE content_banner (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenant (id),
  -- 1 banner, 2 guide page
  kind            smallint NOT NULL CHECK (kind IN (1, 2)),
  title           text NOT NULL,
  language        text NOT NULL,
  terminal        smallint NOT NULL DEFAULT 2 CHECK (terminal IN (0, 1, 2)),
  image_id        bigint NOT NULL REFERENCES media (id),
  link            text,
  sort            integer NOT NULL DEFAULT 0,
  state           smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1)),
  created_by      bigint REFERENCES sys_user (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE INDEX content_banner_list_idx ON content_banner (tenant_id, kind, language, sort) WHERE deleted_at IS NULL;
