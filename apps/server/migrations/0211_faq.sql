-- FAQ (spec §2 classifications and problems, §3 Classification, Problem): tenant content the app
-- shows in the reader's language. Texts are {"zh-CN", "en-US", "it", "es", "ja"}; zh-CN and en-US
-- are required by the routes.
CREATE TABLE faq_classification (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  name         jsonb NOT NULL,
  description  text NOT NULL DEFAULT '',
  summary      text NOT NULL,
  sort         integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX faq_classification_tenant ON faq_classification (tenant_id, sort, id);

CREATE TABLE faq_problem (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id          bigint NOT NULL REFERENCES tenant (id),
  -- A classification with problems cannot be deleted (the route says so first).
  classification_id  bigint NOT NULL REFERENCES faq_classification (id),
  title              jsonb NOT NULL,
  content            jsonb NOT NULL,
  sort               integer NOT NULL DEFAULT 0,
  -- 1 shown in the app, 0 hidden.
  state              smallint NOT NULL DEFAULT 1 CHECK (state IN (0, 1)),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX faq_problem_tenant ON faq_problem (tenant_id, classification_id, sort, id);
