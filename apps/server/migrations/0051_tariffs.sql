-- Electricity prices: one tariff per end user (buy and sell periods covering the day) and one
-- default per tenant (user_id null) for users who have none. Prices have at most 7 decimals and
-- stay below 100 (spec §5); revenue reads them from here.
CREATE TABLE tariff (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  user_id     bigint REFERENCES sys_user (id) ON DELETE CASCADE,
  currency    text NOT NULL DEFAULT 'EUR',
  updated_by  bigint REFERENCES sys_user (id),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tariff_user_key ON tariff (tenant_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX tariff_default_key ON tariff (tenant_id) WHERE user_id IS NULL;

CREATE TABLE tariff_period (
  tariff_id     bigint NOT NULL REFERENCES tariff (id) ON DELETE CASCADE,
  side          text NOT NULL CHECK (side IN ('buy', 'sell')),
  -- Minutes since midnight; end inclusive of its minute when it is 23:59 (1439).
  start_minute  smallint NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
  end_minute    smallint NOT NULL CHECK (end_minute BETWEEN 1 AND 1439),
  price         numeric(9, 7) NOT NULL CHECK (price >= 0 AND price < 100),
  CHECK (end_minute > start_minute),
  PRIMARY KEY (tariff_id, side, start_minute)
);
