-- What the grid's controls hold each device to (packages/domain controlTarget) and the device's own
-- values from before the grid took over: a control is sent only when what it asks changes (a
-- restart sends nothing again), and the device gets its own values back when the control ends.
CREATE TABLE grid_device_control (
  device_id       bigint PRIMARY KEY REFERENCES device (id) ON DELETE CASCADE,
  tenant_id       bigint NOT NULL REFERENCES tenant (id),
  -- The target last sent, {settings: {key: value}, power: "off" | null}; null while no control is active.
  applied         jsonb,
  -- The device's own value of each setting the grid holds, read before the grid's first write of it
  -- ({key: value}, null where the device never told it).
  own_values      jsonb NOT NULL DEFAULT '{}',
  -- Whether the device was running when a control first switched it off (null: not switched off
  -- by the grid, or no reading said): it is switched on again at the control's end only if it was.
  own_running     boolean,
  -- The device_write records of the last change (settings, then a power command): their states are
  -- the outcome the utility is told (acknowledged, refused, timed out, queued for an offline device).
  write_ids       bigint[] NOT NULL DEFAULT '{}',
  -- Fields of the control the device's product cannot carry out: [{field, reason}].
  not_applicable  jsonb NOT NULL DEFAULT '[]',
  updated_at      timestamptz NOT NULL DEFAULT now()
);
