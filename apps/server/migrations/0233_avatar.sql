-- A picture of the account's own upload shown as its avatar (personal information).
ALTER TABLE sys_user ADD COLUMN avatar_media_id bigint REFERENCES media (id);
