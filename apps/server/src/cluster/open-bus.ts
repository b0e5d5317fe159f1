import type { Config } from "../config/config.ts";
import type { Db, Queryable } from "../db/db.ts";
import type { Log } from "../modules/telemetry/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type ClusterBus, createLocalBus, startPostgresBus } from "./bus.ts";

/** A configuration that cannot work beside the console's other processes; the message is the one line to print. */
export class ClusterRefusedError extends Error {}

/** An advisory lock key ("ESS", 1) of the console processes on one database. */
const CONSOLE_KEY = "1162081091, 1";

/**
 * The embedded broker serves the devices connected to its own process only: beside another console
 * on the same database, devices would be split between brokers and commands lost. So a process
 * with the embedded broker holds the console lock alone, and every process with a shared broker
 * holds it shared; a process that cannot take it is refused. The lock lives as long as the
 * listening connection (taken again when it is opened again).
 */
function claimBrokerRole(embedded: boolean) {
  return async (connection: Queryable) => {
    const { rows } = await connection.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_lock${embedded ? "" : "_shared"}(${CONSOLE_KEY}) AS ok`,
    );
    if (rows[0]?.ok) return;
    throw new ClusterRefusedError(
      embedded
        ? "Another ESS Console runs on this database, and the embedded broker serves one console only; set MQTT_URL to a shared broker in every console."
        : "An ESS Console with the embedded broker runs on this database; stop it, or set MQTT_URL to this shared broker in it too.",
    );
  };
}

/**
 * This process's bus: through PostgreSQL's LISTEN/NOTIFY when the console runs on PostgreSQL
 * (where other processes may share the database), else local to the process (PGlite's folder is
 * locked to one process).
 */
export async function openClusterBus(config: Config, db: Db, log: Log, metrics: Metrics): Promise<ClusterBus> {
  if (!config.DATABASE_URL) return createLocalBus(db);
  return startPostgresBus({
    url: config.DATABASE_URL,
    db,
    log,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    onConnect: claimBrokerRole(!config.MQTT_URL),
    metrics,
  });
}
