-- Referral cash-back (Australian market). A referral account belongs to one end user: its code,
-- given to buyers, and the bank account its cash-backs are paid into. Bank details are sealed by
-- the server (AES-256-GCM, key from configuration): these columns hold ciphertext only.
CREATE TABLE referral_account (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id           bigint NOT NULL REFERENCES tenant (id),
  user_id             bigint NOT NULL REFERENCES sys_user (id),
  code                text NOT NULL,
  bank_bsb            text,
  bank_account_number text,
  bank_account_name   text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id),
  UNIQUE (tenant_id, code)
);

-- One cash-back per device sold on a referral: the referee claimed the referrer's code with the
-- serial number of the device they own.
CREATE TABLE referral_cashback (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id           bigint NOT NULL REFERENCES tenant (id),
  referrer_account_id bigint NOT NULL REFERENCES referral_account (id),
  referee_account_id  bigint NOT NULL REFERENCES referral_account (id),
  device_id           bigint NOT NULL REFERENCES device (id),
  cash_out_state      smallint NOT NULL DEFAULT 0 CHECK (cash_out_state IN (0, 1)),
  cash_out_at         timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (device_id),
  CHECK (referrer_account_id <> referee_account_id)
);
CREATE INDEX referral_cashback_list_idx ON referral_cashback (tenant_id, created_at DESC, id DESC);
CREATE INDEX referral_cashback_referrer_idx ON referral_cashback (referrer_account_id);
CREATE INDEX referral_cashback_referee_idx ON referral_cashback (referee_account_id);
