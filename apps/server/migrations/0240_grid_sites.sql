-- The grid connection (IEEE 2030.5 / CSIP-AUS): the console is the aggregator, one client speaking
-- for every site it manages. A grid site is a device as the utility server knows it: its EndDevice
-- (LFDI/SFDI made by the console, ending in its PEN), the registration and its PIN check, and when
-- it was last polled. NMI and grid company stay on the device (0030), where staff edit them.
CREATE TABLE grid_site (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id         bigint NOT NULL REFERENCES tenant (id),
  device_id         bigint NOT NULL REFERENCES device (id),
  lfdi              text NOT NULL CHECK (lfdi ~ '^[0-9A-F]{40}$'),
  -- Decimal digits kept as text: an identifier, never arithmetic.
  sfdi              text NOT NULL CHECK (sfdi ~ '^[0-9]{1,15}$'),
  -- The installer-entered registration PIN (five digits and their check digit), when given.
  pin               text CHECK (pin ~ '^[0-9]{6}$'),
  -- GRID_REGISTRATION_STATES in @ess/domain.
  registered_state  smallint NOT NULL DEFAULT 0,
  end_device_href   text,
  -- Why the last exchange failed (a GRID_FAILURES key), null after a success.
  failure           text,
  last_poll_at      timestamptz,
  last_success_at   timestamptz,
  last_command_at   timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (device_id),
  UNIQUE (lfdi)
);
CREATE INDEX grid_site_list_idx ON grid_site (tenant_id, updated_at DESC, id DESC);

-- Every document exchanged with the utility server, as XML: what the console received (answers
-- to its reads) and what it sent (its writes), per site where the resource belongs to one.
-- Kept for GRID_EXCHANGE_RETENTION_DAYS, then pruned.
CREATE TABLE grid_exchange (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id    bigint NOT NULL REFERENCES tenant (id),
  site_id      bigint REFERENCES grid_site (id) ON DELETE CASCADE,
  -- GRID_DIRECTIONS: 1 received from the utility, 2 sent to it.
  direction    smallint NOT NULL CHECK (direction IN (1, 2)),
  method       text NOT NULL,
  path         text NOT NULL,
  status       integer,
  -- The document's root element (EndDeviceList, DERControl…), for searching by type.
  resource     text,
  body         text NOT NULL DEFAULT '',
  at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX grid_exchange_site_idx ON grid_exchange (site_id, direction, at DESC, id DESC);
CREATE INDEX grid_exchange_tenant_idx ON grid_exchange (tenant_id, at DESC);

-- Commands: each control (DERControl or DefaultDERControl) a site received, its times, what it
-- asks (scaled values), its event status and the last response the console posted.
CREATE TABLE grid_command (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenant (id),
  site_id         bigint NOT NULL REFERENCES grid_site (id) ON DELETE CASCADE,
  mrid            text NOT NULL,
  program_mrid    text,
  primacy         integer,
  -- GRID_COMMAND_KINDS: 1 event control, 2 default control.
  kind            smallint NOT NULL CHECK (kind IN (1, 2)),
  -- GRID_COMMAND_MODES: what the control asks of the site, for the centre's mode counts.
  mode            smallint NOT NULL,
  start_at        timestamptz,
  duration_s      integer,
  controls        jsonb NOT NULL DEFAULT '{}',
  event_status    smallint,
  response_status smallint,
  received_at     timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, mrid)
);
CREATE INDEX grid_command_site_idx ON grid_command (site_id, received_at DESC, id DESC);
