-- The devices' lifetime counters (PV generation, consumption, sold, bought since the device was
-- made) at their newest reading, beside the sums of the days the console has seen: the data
-- board's totals are lifetime figures, which a device installed before it first reported has
-- far more of than its days here. Kept by the same statement triggers as the running totals
-- (0081), from the newest day's last reading.
ALTER TABLE device_energy_total ADD COLUMN pv_life double precision;
ALTER TABLE device_energy_total ADD COLUMN load_life double precision;
ALTER TABLE device_energy_total ADD COLUMN sell_life double precision;
ALTER TABLE device_energy_total ADD COLUMN buy_life double precision;

CREATE OR REPLACE FUNCTION device_energy_total_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
             device_energy_kwh(buy_day_last, buy_total_first, buy_total_last) AS buy,
             pv_total_last, load_total_last, sell_total_last, buy_total_last
        FROM (%1$s) changed
    ), sums AS (
      SELECT device_id, coalesce(sum(sign * pv), 0) AS pv, coalesce(sum(sign * load), 0) AS load, coalesce(sum(sign * sell), 0) AS sell,
             coalesce(sum(sign * buy), 0) AS buy, coalesce(sum(sign * greatest(pv - sell, 0)), 0) AS self_used
        FROM c GROUP BY device_id
    ), newest AS (
      SELECT DISTINCT ON (device_id) device_id, day, pv, load, sell, buy,
             pv_total_last, load_total_last, sell_total_last, buy_total_last
        FROM c WHERE sign = 1
       ORDER BY device_id, day DESC
    )
    INSERT INTO device_energy_total AS t (device_id, pv, load, sell, buy, self_used,
                                          last_day, last_pv, last_load, last_sell, last_buy,
                                          pv_life, load_life, sell_life, buy_life)
    SELECT s.device_id, s.pv, s.load, s.sell, s.buy, s.self_used, n.day, n.pv, n.load, n.sell, n.buy,
           n.pv_total_last, n.load_total_last, n.sell_total_last, n.buy_total_last
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
      last_buy = CASE WHEN %2$s THEN EXCLUDED.last_buy ELSE t.last_buy END,
      pv_life = CASE WHEN %2$s THEN EXCLUDED.pv_life ELSE t.pv_life END,
      load_life = CASE WHEN %2$s THEN EXCLUDED.load_life ELSE t.load_life END,
      sell_life = CASE WHEN %2$s THEN EXCLUDED.sell_life ELSE t.sell_life END,
      buy_life = CASE WHEN %2$s THEN EXCLUDED.buy_life ELSE t.buy_life END
  $q$, changes, newer);
  IF TG_OP = 'DELETE' THEN
    UPDATE device_energy_total t
       SET (last_day, last_pv, last_load, last_sell, last_buy, pv_life, load_life, sell_life, buy_life) =
           (SELECT e.day, device_energy_kwh(e.pv_day_last, e.pv_total_first, e.pv_total_last),
                   device_energy_kwh(e.load_day_last, e.load_total_first, e.load_total_last),
                   device_energy_kwh(e.sell_day_last, e.sell_total_first, e.sell_total_last),
                   device_energy_kwh(e.buy_day_last, e.buy_total_first, e.buy_total_last),
                   e.pv_total_last, e.load_total_last, e.sell_total_last, e.buy_total_last
              FROM device_energy_daily e WHERE e.device_id = t.device_id ORDER BY e.day DESC LIMIT 1)
     WHERE (t.device_id, t.last_day) IN (SELECT device_id, day FROM old_rows);
  END IF;
  RETURN NULL;
END
$fn$;

-- The counters of the rollups stored so far: the newest day's row of each device, by key.
UPDATE device_energy_total t
   SET pv_life = e.pv_total_last, load_life = e.load_total_last, sell_life = e.sell_total_last, buy_life = e.buy_total_last
  FROM device_energy_daily e
 WHERE e.device_id = t.device_id AND e.day = t.last_day;
