-- One device status: the device management's `status` (0 normal, 1 maintenance, 3 error; 2 offline
-- comes from the online status) is the one the list, details and data board show, so the alarm
-- detector sets 3 there while an error-level alarm is open instead of in a column of its own.
UPDATE device SET status = 3 WHERE device_status = 3;
ALTER TABLE device DROP COLUMN device_status;
