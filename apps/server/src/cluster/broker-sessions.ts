import type { Queryable } from "../db/db.ts";
import type { DrainLimits, MqttBus } from "../mqtt/bus.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type LeaseLog, startLeasedJob } from "./job-lease.ts";

/**
 * The broker sessions of a console's processes (external broker, persistent sessions). Each
 * process holds a lease named after its MQTT client id for as long as it runs. One process of the
 * console (lease `broker-sessions`) looks, every renew interval, for sessions whose lease has
 * expired — their process was killed, or stopped and has not come back — and drains and ends each
 * (MqttBus.drainSession): the readings the broker kept for that process are stored by this one,
 * and the broker stops setting aside a share of every device's messages for a process that may
 * never return. A process that comes back takes its lease again and makes a new session.
 */

const PREFIX = "mqtt-session:";
// A session whose process is gone is taken from the table by the one draining it; put back when
// the drain failed (the broker unreachable), so that the next look tries again.
const CLAIM = `DELETE FROM job_lease WHERE job LIKE '${PREFIX}%' AND job <> $1 AND expires_at < now() RETURNING job`;
const GIVE_BACK = `INSERT INTO job_lease (job, holder, token, expires_at) VALUES ($1, 'drain failed', 1, '-infinity')
ON CONFLICT (job) DO NOTHING`;

export interface BrokerSessionsOptions {
  db: Queryable;
  bus: Pick<MqttBus, "drainSession">;
  /** This process's MQTT client id. */
  clientId: string;
  ttlMs: number;
  log: LeaseLog;
  metrics: Pick<Metrics, "jobLeader" | "brokerSessionsDrained">;
  limits?: DrainLimits;
  /** Tests: a holder id per simulated process. */
  holder?: string;
}

export function startBrokerSessions(options: BrokerSessionsOptions) {
  const { db, log, metrics } = options;
  const own = `${PREFIX}${options.clientId}`;
  const limits = options.limits ?? { quietMs: 1000, maxMs: 30_000 };
  const renewMs = Math.max(1, Math.floor(options.ttlMs / 3));
  const common = { db, ttlMs: options.ttlMs, log, ...(options.holder ? { holder: options.holder } : {}) };

  // Held, not run: the lease itself says that this process and its session are alive.
  const alive = startLeasedJob({ ...common, job: own, start: () => ({ stop: async () => {} }) });

  async function drainExpired(signal: AbortSignal): Promise<void> {
    const { rows } = await db.query<{ job: string }>(CLAIM, [own]);
    for (const { job } of rows) {
      if (signal.aborted) {
        await db.query(GIVE_BACK, [job]);
        continue;
      }
      const clientId = job.slice(PREFIX.length);
      try {
        const messages = await options.bus.drainSession(clientId, limits);
        metrics.brokerSessionsDrained.inc();
        log.info({ clientId, messages }, "ended the broker session of a process that is gone, storing what it held");
      } catch (error) {
        await db.query(GIVE_BACK, [job]).catch(() => {});
        log.warn({ err: error, clientId }, "could not drain a gone process's broker session; trying again");
      }
    }
  }

  const keeper = startLeasedJob({
    ...common,
    job: "broker-sessions",
    metrics,
    start(signal) {
      let running = Promise.resolve();
      const timer = setInterval(() => {
        running = running
          .then(() => drainExpired(signal))
          .catch((error) => log.warn({ err: error }, "broker session look failed"));
      }, renewMs);
      return {
        async stop() {
          clearInterval(timer);
          await running;
        },
      };
    },
  });

  return {
    firstTry: Promise.all([alive.firstTry, keeper.firstTry]).then(() => undefined),
    async stop() {
      await keeper.stop();
      await alive.stop();
    },
  };
}
