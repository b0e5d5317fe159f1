-- Media store: pictures and attachments uploaded for published content. The bytes live in the
-- file store (named by SHA-256); a row says what they are (sniffed from the bytes), who uploaded
-- them and the unguessable key of the link they are served at. Pictures carry their size in
-- pixels and the digest of their thumbnail.
CREATE TABLE media (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenant (id),
  key             text NOT NULL UNIQUE CHECK (key ~ '^[0-9a-f]{32}$'),
  kind            text NOT NULL CHECK (kind IN ('image', 'attachment')),
  sha256          text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content_type    text NOT NULL,
  name            text NOT NULL,
  size            bigint NOT NULL CHECK (size > 0),
  width           integer,
  height          integer,
  thumb_sha256    text CHECK (thumb_sha256 ~ '^[0-9a-f]{64}$'),
  thumb_type      text,
  created_by      bigint REFERENCES sys_user (id),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_tenant_idx ON media (tenant_id, id);

-- News and data-center documents (spec §3 Data-center article; type: spec §4 document data type
-- 1 news … 6 Q&A). One language per article, so the app asks for content in its own; terminal
-- 0 app, 1 web, 2 both; state 0 draft, 1 published (visible from publish_time, when given).
-- content is rich text as the sanitiser left it; attachments [{name, mediaId, url}].
CREATE TABLE content_article (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenant (id),
  title           text NOT NULL,
  type            smallint NOT NULL CHECK (type BETWEEN 1 AND 6),
  language        text NOT NULL,
  terminal        smallint NOT NULL DEFAULT 2 CHECK (terminal IN (0, 1, 2)),
  sketch          text NOT NULL DEFAULT '',
  cover_id        bigint REFERENCES media (id),
  content         text NOT NULL,
  attachments     jsonb NOT NULL DEFAULT '[]',
  sort            integer NOT NULL DEFAULT 0,
  state           smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1)),
  publish_time    timestamptz,
  created_by      bigint REFERENCES sys_user (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE INDEX content_article_list_idx ON content_article (tenant_id, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX content_article_published_idx ON content_article (tenant_id, language, type, publish_time DESC)
  WHERE deleted_at IS NULL AND state = 1;
