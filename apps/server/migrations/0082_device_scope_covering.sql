-- A channel account's devices are the ids under its organisations as seller or as installer
-- (data-scope.ts, devicesOfOrganisations). With the id in these indexes both halves are read
-- from the index alone, and the planner prefers them to a scan of every device.
CREATE INDEX device_org_id_idx ON device (org_id, id);
CREATE INDEX device_installer_org_id_idx ON device (installer_org_id, id);
DROP INDEX device_org_idx;
DROP INDEX device_installer_org_idx;
