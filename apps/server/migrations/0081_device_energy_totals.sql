-- kWh of one day from a device's counters: its own daily counter, or the growth of its total
-- counter when the daily one is missing. The view below and the running totals share it.
CREATE FUNCTION device_energy_kwh(day_last real, total_first double precision, total_last double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN day_last IS NOT NULL THEN day_last::double precision ELSE greatest(total_last - total_first, 0) END
$$;

CREATE OR REPLACE VIEW device_energy_day AS
SELECT device_id, day, first_ts, last_ts,
  device_energy_kwh(pv_day_last, pv_total_first, pv_total_last) AS pv,
  device_energy_kwh(load_day_last, load_total_first, load_total_last) AS load,
  device_energy_kwh(sell_day_last, sell_total_first, sell_total_last) AS sell,
  device_energy_kwh(buy_day_last, buy_total_first, buy_total_last) AS buy,
  device_energy_kwh(charge_day_last, charge_total_first, charge_total_last) AS charge,
  device_energy_kwh(discharge_day_last, discharge_total_first, discharge_total_last) AS discharge
FROM device_energy_daily;

-- Per device: the sums of every day in device_energy_day (self_used sums each day's PV not sold),
-- and the figures of its latest day. The data board sums these (one row per device) instead of
-- every daily rollup; statement triggers keep them equal to the daily rows as ingest merges them.
CREATE TABLE device_energy_total (
  device_id  bigint PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
  pv         double precision NOT NULL DEFAULT 0,
  load       double precision NOT NULL DEFAULT 0,
  sell       double precision NOT NULL DEFAULT 0,
  buy        double precision NOT NULL DEFAULT 0,
  self_used  double precision NOT NULL DEFAULT 0,
  last_day   date,
  last_pv    double precision,
  last_load  double precision,
  last_sell  double precision,
  last_buy   double precision
);

-- Adds signed daily figures (+ rows added or as replaced, − rows replaced or removed) to the
-- totals of their devices. The latest day's figures follow the newest row added; when that day's
-- row is removed they are looked up again.
CREATE FUNCTION device_energy_total_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT r.*, 1 AS sign FROM new_rows r'
    WHEN 'UPDATE' THEN 'SELECT r.*, 1 AS sign FROM new_rows r UNION ALL SELECT r.*, -1 FROM old_rows r'
    ELSE 'SELECT r.*, -1 AS sign FROM old_rows r' END;
  newer text := '(EXCLUDED.last_day IS NOT NULL AND (t.last_day IS NULL OR EXCLUDED.last_day >= t.last_day))';
BEGIN
  EXECUTE format($q$
    WITH c AS (
      SELECT device_id, day, sign,
             device_energy_kwh(pv_day_last, pv_total_first, pv_total_last) AS pv,
             device_energy_kwh(load_day_last, load_total_first, load_total_last) AS load,
             device_energy_kwh(sell_day_last, sell_total_first, sell_total_last) AS sell,
             device_energy_kwh(buy_day_last, buy_total_first, buy_total_last) AS buy
        FROM (%1$s) changed
    ), sums AS (
      SELECT device_id, coalesce(sum(sign * pv), 0) AS pv, coalesce(sum(sign * load), 0) AS load, coalesce(sum(sign * sell), 0) AS sell,
             coalesce(sum(sign * buy), 0) AS buy, coalesce(sum(sign * greatest(pv - sell, 0)), 0) AS self_used
        FROM c GROUP BY device_id
    ), newest AS (
      SELECT DISTINCT ON (device_id) device_id, day, pv, load, sell, buy FROM c WHERE sign = 1
       ORDER BY device_id, day DESC
    )
    INSERT INTO device_energy_total AS t (device_id, pv, load, sell, buy, self_used,
                                          last_day, last_pv, last_load, last_sell, last_buy)
    SELECT s.device_id, s.pv, s.load, s.sell, s.buy, s.self_used, n.day, n.pv, n.load, n.sell, n.buy
      FROM sums s LEFT JOIN newest n USING (device_id)
      -- a device deleted in the same statement keeps no totals
      WHERE EXISTS (SELECT 1 FROM device d WHERE d.id = s.device_id)
    ON CONFLICT (device_id) DO UPDATE SET
      pv = t.pv + EXCLUDED.pv, load = t.load + EXCLUDED.load, sell = t.sell + EXCLUDED.sell,
      buy = t.buy + EXCLUDED.buy, self_used = t.self_used + EXCLUDED.self_used,
      last_day = CASE WHEN %2$s THEN EXCLUDED.last_day ELSE t.last_day END,
      last_pv = CASE WHEN %2$s THEN EXCLUDED.last_pv ELSE t.last_pv END,
      last_load = CASE WHEN %2$s THEN EXCLUDED.last_load ELSE t.last_load END,
      last_sell = CASE WHEN %2$s THEN EXCLUDED.last_sell ELSE t.last_sell END,
      last_buy = CASE WHEN %2$s THEN EXCLUDED.last_buy ELSE t.last_buy END
  $q$, changes, newer);
  IF TG_OP = 'DELETE' THEN
    UPDATE device_energy_total t
       SET (last_day, last_pv, last_load, last_sell, last_buy) =
           (SELECT e.day, e.pv, e.load, e.sell, e.buy FROM device_energy_day e
             WHERE e.device_id = t.device_id ORDER BY e.day DESC LIMIT 1)
     WHERE (t.device_id, t.last_day) IN (SELECT device_id, day FROM old_rows);
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER device_energy_total_insert AFTER INSERT ON device_energy_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_energy_total_apply();
CREATE TRIGGER device_energy_total_update AFTER UPDATE ON device_energy_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION device_energy_total_apply();
CREATE TRIGGER device_energy_total_delete AFTER DELETE ON device_energy_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION device_energy_total_apply();

-- The rollups stored so far: one pass for the sums and the latest day, then that day's row by key.
INSERT INTO device_energy_total (device_id, pv, load, sell, buy, self_used, last_day, last_pv, last_load, last_sell, last_buy)
SELECT s.device_id, s.pv, s.load, s.sell, s.buy, s.self_used, s.last_day, e.pv, e.load, e.sell, e.buy
  FROM (SELECT device_id, coalesce(sum(pv), 0) AS pv, coalesce(sum(load), 0) AS load, coalesce(sum(sell), 0) AS sell,
               coalesce(sum(buy), 0) AS buy, coalesce(sum(greatest(pv - sell, 0)), 0) AS self_used, max(day) AS last_day
          FROM device_energy_day GROUP BY device_id) s
  JOIN device_energy_day e ON e.device_id = s.device_id AND e.day = s.last_day;
