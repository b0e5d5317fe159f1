-- Sign-in protection: captcha, slide and SMS challenges, counters for rate limits, account
-- lockout after repeated failures, and social sign-in bindings.

-- One open challenge per (kind, key): a captcha image or slide puzzle per randomStr, a slide
-- proof per token digest, an SMS code per phone number. Only a digest of the answer is kept.
CREATE TABLE auth_challenge (
  kind         text NOT NULL CHECK (kind IN ('captcha', 'slide', 'slide-proof', 'sms')),
  key          text NOT NULL,
  tenant_id    bigint,
  answer_hash  bytea,
  -- the slide puzzle's gap position (checked within a tolerance, so not hashed)
  answer_x     integer,
  attempts     integer NOT NULL DEFAULT 0,
  issued_at    timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (kind, key)
);
CREATE INDEX auth_challenge_expiry_idx ON auth_challenge (expires_at);

-- Fixed-window counters (failed sign-ins per address, SMS per number…), shared by all processes.
CREATE TABLE rate_counter (
  bucket        text NOT NULL,
  key           text NOT NULL,
  window_start  timestamptz NOT NULL,
  hits          integer NOT NULL,
  PRIMARY KEY (bucket, key)
);

ALTER TABLE sys_user ADD COLUMN failed_logins integer NOT NULL DEFAULT 0;
-- set when the account locked itself after failures; an administrator's lock leaves it null
ALTER TABLE sys_user ADD COLUMN locked_until timestamptz;

CREATE TABLE sys_user_social (
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  provider     text NOT NULL,
  external_id  text NOT NULL,
  user_id      bigint NOT NULL REFERENCES sys_user (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, provider, external_id)
);
CREATE UNIQUE INDEX sys_user_social_user_key ON sys_user_social (user_id, provider);
