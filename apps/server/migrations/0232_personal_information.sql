-- Personal information (spec §5): gender (1 male, 2 female, 3 another or not said) and date of birth.
ALTER TABLE sys_user ADD COLUMN gender smallint CHECK (gender IN (1, 2, 3));
ALTER TABLE sys_user ADD COLUMN birth_date date;
