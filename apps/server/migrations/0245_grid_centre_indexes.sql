-- The IEEE device centre's command records across every site of a tenant, newest first: without
-- it, listing all commands in scope sorts the whole table (grid_command_site_idx serves one site).
CREATE INDEX grid_command_tenant_idx ON grid_command (tenant_id, received_at DESC, id DESC);
