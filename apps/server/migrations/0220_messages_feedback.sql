-- Messages to the end users' app and the console (spec §3 Message) with their recipients' inboxes,
-- and end users' feedback with the staff's replies (spec §3 Feedback, §4 type and state).
CREATE TABLE message (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id     bigint NOT NULL REFERENCES tenant (id),
  -- the sender: its data scope bounds the audience, and who sees the message among staff
  created_by    bigint NOT NULL REFERENCES sys_user (id),
  title         text NOT NULL,
  summary       text NOT NULL,
  -- plain or rich text (HTML) as written; sanitised on the way in once the sanitiser lands
  content       text NOT NULL,
  description   text NOT NULL DEFAULT '',
  -- a media id of the file store (uploads come with the media module)
  cover         bigint,
  terminal      text NOT NULL CHECK (terminal IN ('app', 'web', 'both')),
  audience      text NOT NULL CHECK (audience IN ('everyone', 'organisation', 'users')),
  org_id        bigint REFERENCES organisation (id),
  user_ids      bigint[] NOT NULL DEFAULT '{}',
  -- 0 draft, 1 scheduled, 2 published, 3 recalled
  state         smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2, 3)),
  publish_at    timestamptz,
  published_at  timestamptz,
  recalled_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_tenant_created ON message (tenant_id, created_at DESC);
-- what the publication job looks for
CREATE INDEX message_due ON message (publish_at) WHERE state = 1;

-- One row per recipient, written in the same transaction as the publication.
CREATE TABLE message_recipient (
  message_id  bigint NOT NULL REFERENCES message (id) ON DELETE CASCADE,
  user_id     bigint NOT NULL REFERENCES sys_user (id),
  read_at     timestamptz,
  PRIMARY KEY (message_id, user_id)
);
CREATE INDEX message_recipient_user ON message_recipient (user_id, message_id DESC);

CREATE TABLE feedback (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  user_id      bigint NOT NULL REFERENCES sys_user (id),
  -- 0 download/load, 1 image/chapter, 2 app experience, 3 other
  type         smallint NOT NULL CHECK (type IN (0, 1, 2, 3)),
  content      text NOT NULL,
  contact      text NOT NULL DEFAULT '',
  -- media ids of the file store (uploads come with the media module)
  pictures     bigint[],
  -- 0 to be read, 1 read, 2 needs handling, 3 handled; only forward
  state        smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2, 3)),
  assignee_id  bigint REFERENCES sys_user (id),
  read_at      timestamptz,
  handled_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_tenant_created ON feedback (tenant_id, created_at DESC);
CREATE INDEX feedback_user ON feedback (user_id, created_at DESC);

CREATE TABLE feedback_reply (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  feedback_id  bigint NOT NULL REFERENCES feedback (id) ON DELETE CASCADE,
  author_id    bigint NOT NULL REFERENCES sys_user (id),
  content      text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_reply_feedback ON feedback_reply (feedback_id, id);
