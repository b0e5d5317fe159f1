-- Firmware and app versions, uploaded packages, over-the-air upgrades of devices and campaigns
-- (docs/ARCHITECTURE.md "Firmware and OTA"). Every upgrade of one device is one device_upgrade row
-- that moves 0 pending confirmation → 1 confirmed → 2 upgrading → 4 succeeded / 3 failed.

-- Uploaded files; the bytes live in DATA_DIR/files under their SHA-256 digest.
CREATE TABLE stored_file (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenant (id),
  name        text NOT NULL,
  size        bigint NOT NULL CHECK (size > 0),
  sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  crc32       text NOT NULL,
  created_by  bigint REFERENCES sys_user (id),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE firmware_version (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id        bigint NOT NULL REFERENCES tenant (id),
  -- App/firmware type 0–11 (spec §4): 0, 1 apps (download link), 2–11 firmware (uploaded package).
  type             smallint NOT NULL CHECK (type BETWEEN 0 AND 11),
  version_code     text NOT NULL,
  version_name     text NOT NULL,
  -- Notes per language: {"zh-CN": "…", "en-US": "…", …}.
  notes            jsonb NOT NULL DEFAULT '{}',
  download_url     text,
  file_id          bigint REFERENCES stored_file (id),
  -- 1 single phase, 2 three phase, null any.
  phase_type       smallint CHECK (phase_type IN (1, 2)),
  -- Versions a device may run to take this one (empty: any).
  upgradeable_from text[] NOT NULL DEFAULT '{}',
  -- 0 to be issued, 1 distributed.
  state            smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1)),
  created_by       bigint REFERENCES sys_user (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted_at       timestamptz,
  CHECK (download_url IS NOT NULL OR file_id IS NOT NULL)
);
CREATE UNIQUE INDEX firmware_version_code_uq ON firmware_version (tenant_id, type, version_code) WHERE deleted_at IS NULL;

CREATE TABLE ota_campaign (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id        bigint NOT NULL REFERENCES tenant (id),
  -- The launcher's organisation (null: back office); channel staff see their subtree's campaigns.
  org_id           bigint REFERENCES organisation (id),
  created_by       bigint REFERENCES sys_user (id),
  version_id       bigint NOT NULL REFERENCES firmware_version (id),
  name             text NOT NULL,
  filter           jsonb NOT NULL DEFAULT '{}',
  -- The OTA schedule: one to three upgrade times, ascending.
  times            timestamptz[] NOT NULL,
  run_index        integer NOT NULL DEFAULT -1,
  batch_size       integer NOT NULL CHECK (batch_size > 0),
  batch_interval_s integer NOT NULL CHECK (batch_interval_s >= 0),
  bms_id           smallint,
  bcu_id           smallint,
  state            text NOT NULL DEFAULT 'scheduled'
                   CHECK (state IN ('scheduled', 'running', 'waiting', 'paused', 'cancelled', 'completed')),
  excluded         integer NOT NULL DEFAULT 0,
  last_batch_at    timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz
);
CREATE INDEX ota_campaign_active_idx ON ota_campaign (state) WHERE state IN ('scheduled', 'running', 'waiting');

-- Request ids of cmd/ota orders: unique across restarts, so a late answer to an old order is ignored.
CREATE SEQUENCE ota_request_seq MINVALUE 1 MAXVALUE 4294967295 CYCLE;

CREATE TABLE device_upgrade (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id      bigint NOT NULL REFERENCES tenant (id),
  device_id      bigint NOT NULL REFERENCES device (id),
  version_id     bigint NOT NULL REFERENCES firmware_version (id),
  campaign_id    bigint REFERENCES ota_campaign (id),
  firmware_type  smallint NOT NULL,
  version_code   text NOT NULL,
  from_version   text,
  bms_id         smallint,
  bcu_id         smallint,
  -- 0 pending confirmation, 1 confirmed, 2 upgrading, 3 failed, 4 succeeded.
  status         smallint NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 4),
  stage          text,
  percent        real NOT NULL DEFAULT 0,
  bytes_total    bigint NOT NULL DEFAULT 0,
  bytes_sent     bigint NOT NULL DEFAULT 0,
  bytes_received bigint NOT NULL DEFAULT 0,
  crc_sent       text,
  crc_received   text,
  cause          text,
  result_code    integer,
  -- The order in flight (null: not sent yet, or to be sent again).
  request_id     bigint,
  attempts       integer NOT NULL DEFAULT 0,
  sent_at        timestamptz,
  -- When an open upgrade gives up waiting (for an answer, progress, or the device to return).
  deadline_at    timestamptz,
  created_by     bigint REFERENCES sys_user (id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz,
  CHECK ((status IN (3, 4)) = (finished_at IS NOT NULL)),
  CHECK (status <> 3 OR cause IS NOT NULL)
);
CREATE INDEX device_upgrade_device_idx ON device_upgrade (device_id, created_at DESC);
CREATE INDEX device_upgrade_campaign_idx ON device_upgrade (campaign_id, status);
CREATE INDEX device_upgrade_open_idx ON device_upgrade (deadline_at) WHERE status IN (0, 1, 2);
CREATE UNIQUE INDEX device_upgrade_request_uq ON device_upgrade (request_id) WHERE request_id IS NOT NULL;
-- One open upgrade per device and firmware type (BMS modules apart by index and BCU).
CREATE UNIQUE INDEX device_upgrade_one_open_uq ON device_upgrade (device_id, firmware_type, coalesce(bcu_id, 0), coalesce(bms_id, 0))
  WHERE status IN (0, 1, 2);

-- The version each device runs per firmware type, as its last successful upgrade left it.
CREATE TABLE device_firmware (
  device_id     bigint NOT NULL REFERENCES device (id),
  firmware_type smallint NOT NULL,
  version       text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, firmware_type)
);
