-- The app's FAQ reads one classification's shown problems a page at a time, in sort order: this
-- index holds only shown problems in that order, so a page neither sorts nor skips hidden rows.
CREATE INDEX faq_problem_shown ON faq_problem (tenant_id, classification_id, sort, id) WHERE state = 1;

-- How many shown problems each classification has, for the app's classification list and the
-- total of a problem page: counting them on every request would read every problem of a large
-- tenant. Statement triggers keep it equal to the problems as they are added, edited (shown,
-- hidden or moved to another classification) and deleted.
ALTER TABLE faq_classification ADD COLUMN shown_problems integer NOT NULL DEFAULT 0;

-- One statement per change, so an edit that leaves the counts as they were (a title) locks no
-- classification, and a move between two classifications changes both at once.
CREATE FUNCTION faq_shown_problems_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT classification_id, state, 1 AS sign FROM new_rows'
    WHEN 'UPDATE' THEN 'SELECT classification_id, state, 1 AS sign FROM new_rows
                        UNION ALL SELECT classification_id, state, -1 FROM old_rows'
    ELSE 'SELECT classification_id, state, -1 AS sign FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    UPDATE faq_classification c SET shown_problems = c.shown_problems + d.n
      FROM (SELECT classification_id, sum(sign)::int AS n FROM (%s) changed
             WHERE state = 1 GROUP BY classification_id HAVING sum(sign) <> 0) d
     WHERE c.id = d.classification_id
  $q$, changes);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER faq_shown_problems_insert AFTER INSERT ON faq_problem
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION faq_shown_problems_apply();
CREATE TRIGGER faq_shown_problems_update AFTER UPDATE ON faq_problem
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION faq_shown_problems_apply();
CREATE TRIGGER faq_shown_problems_delete AFTER DELETE ON faq_problem
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION faq_shown_problems_apply();

-- The problems stored so far.
UPDATE faq_classification c SET shown_problems = d.n
  FROM (SELECT classification_id, count(*)::int AS n FROM faq_problem WHERE state = 1 GROUP BY classification_id) d
 WHERE c.id = d.classification_id;
