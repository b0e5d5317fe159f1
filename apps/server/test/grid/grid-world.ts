import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActiveControl } from "@ess/domain";
import { COUNTRY_AUSTRALIA, GRID_IDENTITY_DEFAULTS } from "@ess/domain";
import { siteIdentity } from "@ess/domain/grid/hashed-identity.ts";
import {
  createCertificateAuthority,
  identityOfCertificate,
  issueClientCertificate,
  issueServerCertificate,
} from "@ess/sep2/certificates.ts";
import { type CommsRates, compressedClock, type SimClock, startUtilitySim, type UtilitySim } from "@ess/utility-sim";
import type { Db } from "../../src/db/db.ts";
import type { DeviceTake } from "../../src/modules/grid/event-responses.ts";
import {
  type GridClient,
  type GridClientOptions,
  type PinMismatchEvent,
  startGridClient,
} from "../../src/modules/grid/grid-client.ts";
import { loadGridCredentials } from "../../src/modules/grid/grid-credentials.ts";
import { createPartitionKeeper } from "../../src/modules/telemetry/partitions.ts";
import { createMetrics, type Metrics } from "../../src/observability/metrics.ts";
import { createTestDb } from "../helpers/test-db.ts";

/**
 * A utility test server (HTTPS, client certificates from its CA) on a compressed clock, a migrated
 * database with Australian devices, and the console's grid client on the same clock: the client's
 * 60 s polls take 60 / factor real seconds.
 */

export interface SiteSpec {
  sn: string;
  nmi: string;
  ratedPowerKw?: number;
  /** The site's PIN column. */
  pin?: string;
  /** Registered out of band by the utility with this PIN (default in band by the client). */
  outOfBand?: { pin: number; nmi?: string };
}

export const NMIS = ["20019857328", "QAAAVZZZZZ3", "41030000000"] as const;

export interface GridWorld {
  clock: SimClock;
  sim: UtilitySim;
  db: Db;
  metrics: Metrics;
  readonly client: GridClient;
  /** Stops the grid client as a console stopping would (what it holds in memory is gone). */
  stopClient(): Promise<void>;
  /** Starts a new grid client on the same database and utility (a console started again), with `extra` options. */
  startClient(extra?: Partial<GridClientOptions>): void;
  aggregatorLfdi: string;
  devices: Map<string, number>;
  alarms: PinMismatchEvent[];
  /** What the client told the effective-control hook, in order, with the utility's time (ms). */
  effective: { deviceId: number; active: ActiveControl | null; at: number }[];
  siteLfdi(sn: string): string;
  /** Stores a telemetry sample of the device at server time `atMs` (W, var, V, %; null var: not reported). */
  sample(
    sn: string,
    atMs: number,
    values: { grid: number; gridVar: number | null; inverter: number; inverterVar: number | null; voltage: number; soc: number },
  ): Promise<void>;
  close(): Promise<void>;
}

const quiet = { info() {}, warn() {}, error() {} };

export async function startGridWorld(options: {
  factor: number;
  sites: SiteSpec[];
  rates?: Partial<CommsRates>;
  defaultPin?: string;
  /** Runs once the utility and the sites are set up, before the client's first request (a procedure's preconditions). */
  beforeClient?: (sim: UtilitySim, ids: { aggregatorLfdi: string; siteLfdi(sn: string): string }, db: Db) => void | Promise<void>;
  /** How each site's device takes a control applied to it (default: not told, as with no device). */
  take?: (deviceId: number, active: ActiveControl) => DeviceTake | undefined;
  /** More options of the first client (its lease, its log…). */
  client?: Partial<GridClientOptions>;
}): Promise<GridWorld> {
  const clock = compressedClock({ factor: options.factor });
  const ca = await createCertificateAuthority({ commonName: "Grid test utility CA" });
  const server = await issueServerCertificate(ca, { commonName: "utility" });
  const aggregator = await issueClientCertificate(ca, { commonName: "console aggregator" });
  const sim = await startUtilitySim({
    tls: { ca: ca.certificatePem, cert: server.certificatePem, key: server.privateKeyPem },
    clock,
  });
  if (options.rates) sim.control.setRates(options.rates);
  const dir = mkdtempSync(join(tmpdir(), "grid-"));
  const files = { ESS_GRID_CERT: join(dir, "cert.pem"), ESS_GRID_KEY: join(dir, "key.pem"), ESS_GRID_CA: join(dir, "ca.pem") };
  writeFileSync(files.ESS_GRID_CERT, aggregator.certificatePem);
  writeFileSync(files.ESS_GRID_KEY, aggregator.privateKeyPem);
  writeFileSync(files.ESS_GRID_CA, ca.certificatePem);
  const aggregatorLfdi = identityOfCertificate(aggregator.certificatePem).lfdi;
  const pen = GRID_IDENTITY_DEFAULTS.pen;
  const siteLfdi = (sn: string) => siteIdentity(aggregatorLfdi, sn, pen).lfdi;

  const db = await createTestDb();
  await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
  await createPartitionKeeper(db, { retentionDays: 30 }).ensureAround(clock.now());
  const devices = new Map<string, number>();
  for (const spec of options.sites) {
    const { rows } = await db.query<{ id: number }>(
      "INSERT INTO device (tenant_id, sn, name, country_code, nmi, rated_power, online_status) VALUES (1, $1, $1, $2, $3, $4, 1) RETURNING id::int",
      [spec.sn, COUNTRY_AUSTRALIA, spec.nmi, spec.ratedPowerKw ?? 6],
    );
    devices.set(spec.sn, rows[0]?.id as number);
    if (spec.outOfBand)
      sim.control.registerEndDevice({
        lfdi: siteLfdi(spec.sn),
        aggregatorLfdi,
        pin: spec.outOfBand.pin,
        nmi: spec.outOfBand.nmi,
      });
  }
  // A device elsewhere never takes part.
  await db.query("INSERT INTO device (tenant_id, sn, name, country_code, nmi) VALUES (1, 'ITALY0001', 'ITALY0001', 1, '')");
  // The PIN column belongs to the site row; staff fill it after the client made the row, so tests pre-make it.
  for (const spec of options.sites.filter((s) => s.pin)) {
    const identity = siteIdentity(aggregatorLfdi, spec.sn, pen);
    await db.query("INSERT INTO grid_site (tenant_id, device_id, lfdi, sfdi, pin) VALUES (1, $1, $2, $3, $4)", [
      devices.get(spec.sn),
      identity.lfdi,
      identity.sfdi,
      spec.pin,
    ]);
  }

  await options.beforeClient?.(sim, { aggregatorLfdi, siteLfdi }, db);
  const metrics = createMetrics();
  const alarms: PinMismatchEvent[] = [];
  const effective: GridWorld["effective"] = [];
  const start = (extra?: Partial<GridClientOptions>) =>
    startGridClient({
      db,
      credentials: loadGridCredentials(files),
      dcapUrl: sim.dcapUrl,
      pen,
      scope: "au",
      defaultPin: options.defaultPin,
      clock,
      log: quiet,
      metrics,
      onPinMismatch: (event) => alarms.push(event),
      onEffectiveControl: (_siteId, deviceId, active, took) => {
        effective.push({ deviceId, active, at: sim.control.now() * 1000 });
        const take = active && options.take?.(deviceId, active);
        if (take) took?.(take);
      },
      ...extra,
    });
  let client = start(options.client);
  let seq = 0;
  return {
    clock,
    sim,
    db,
    metrics,
    get client() {
      return client;
    },
    async stopClient() {
      await client.stop();
    },
    startClient(extra) {
      client = start(extra);
    },
    aggregatorLfdi,
    devices,
    alarms,
    effective,
    siteLfdi,
    async sample(sn, atMs, v) {
      const id = devices.get(sn);
      seq++;
      await db.query(
        `INSERT INTO telemetry_history (device_id, ts, seq, grid_power, grid_reactive_power, inverter_power,
                                        inverter_reactive_power, grid_voltage, battery_soc, blocks)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '\\x'::bytea)`,
        [id, new Date(atMs), seq, v.grid, v.gridVar, v.inverter, v.inverterVar, v.voltage, v.soc],
      );
      await db.query(
        `INSERT INTO device_latest (device_id, ts, seq, received_at) VALUES ($1, $2, $3, $2)
         ON CONFLICT (device_id) DO UPDATE SET ts = EXCLUDED.ts, seq = EXCLUDED.seq`,
        [id, new Date(atMs), seq],
      );
    },
    async close() {
      await client.stop();
      await sim.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
