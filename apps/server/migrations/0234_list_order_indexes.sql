-- The default order of the FAQ problem and region lists, read from an index instead of sorting
-- every row of a large tenant for each page.
CREATE INDEX faq_problem_order ON faq_problem (tenant_id, sort, id);
CREATE INDEX region_order ON region (tenant_id, grade, sort, id);
