-- Telephone numbers are stored in E.164 from now on (libphonenumber-js, spec §5): numbers written
-- with their country code lose their spaces and dashes, 11-digit Chinese mobile numbers get +86.
UPDATE sys_user SET phone = '+' || regexp_replace(phone, '\D', '', 'g') WHERE phone ~ '^\s*\+';
UPDATE sys_user SET phone = '+86' || regexp_replace(phone, '\D', '', 'g')
 WHERE regexp_replace(phone, '[\s-]', '', 'g') ~ '^1[3-9][0-9]{9}$';
UPDATE organisation SET phone = '+' || regexp_replace(phone, '\D', '', 'g') WHERE phone ~ '^\s*\+';
UPDATE organisation SET phone = '+86' || regexp_replace(phone, '\D', '', 'g')
 WHERE regexp_replace(phone, '[\s-]', '', 'g') ~ '^1[3-9][0-9]{9}$';
