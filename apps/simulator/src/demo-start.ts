import { consoleClient } from "./console-client.ts";
import { provisionDemoFleet } from "./demo-fleet.ts";
import { type SimulatorProcess, startSimulatorProcess } from "./simulator-process.ts";

/** The embedded broker's WebSocket endpoint of a console at `consoleUrl` (for a broker port not known). */
export const embeddedBrokerWsUrl = (consoleUrl: string) => new URL("mqtt", consoleUrl.replace(/^http/, "ws")).toString();

export interface DemoFleetStart {
  /** The running console, e.g. http://127.0.0.1:7072/. */
  consoleUrl: string;
  /** Where the devices connect. */
  brokerUrl: string;
  /** An account with the device permissions (the administrator). */
  username: string;
  password: string;
  count: number;
  /** The fleet file written for the simulator. */
  file: string;
  intervalMs?: number;
  onExit?: (code: number | null) => void;
}

/**
 * The demo fleet beside a running console, as `npm start` runs it: signs in, registers the devices
 * and has their broker secrets issued through the console's API, signs out, then runs the simulator
 * on them as a child process, whose devices connect over MQTT like any other.
 */
export async function startDemoFleet(options: DemoFleetStart): Promise<SimulatorProcess> {
  const client = consoleClient(options.consoleUrl);
  await client.signIn(options.username, options.password);
  try {
    await provisionDemoFleet(client, { count: options.count, brokerUrl: options.brokerUrl, file: options.file });
  } finally {
    await client.signOut().catch(() => undefined);
  }
  return startSimulatorProcess(options.file, {
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    ...(options.onExit ? { onExit: options.onExit } : {}),
  });
}
