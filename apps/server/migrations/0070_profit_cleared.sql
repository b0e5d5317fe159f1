-- Clearing a device's profit (spec §5): revenue counts only readings after this moment.
ALTER TABLE device ADD COLUMN profit_cleared_at timestamptz;
