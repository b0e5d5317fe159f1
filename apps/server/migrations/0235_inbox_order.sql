-- An inbox in publication order from an index: each delivery carries its message's publication
-- time, so a user's page is read from (user, published_at) instead of sorting every message the
-- user ever received.
ALTER TABLE message_recipient ADD COLUMN published_at timestamptz;
UPDATE message_recipient r SET published_at = m.published_at FROM message m WHERE m.id = r.message_id;
CREATE INDEX message_recipient_inbox ON message_recipient (user_id, published_at DESC, message_id DESC);
