-- Where a control's responses go and which ones the utility wants (DERControl replyTo and
-- responseRequired): the "completed" response is due after the control has left the utility's
-- list, so the console keeps them with the command.
ALTER TABLE grid_command ADD COLUMN reply_to text;
ALTER TABLE grid_command ADD COLUMN response_required text;
