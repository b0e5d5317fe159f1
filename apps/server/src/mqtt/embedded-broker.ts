import { createServer, type Server } from "node:net";
import type { Duplex } from "node:stream";
import { Aedes, type AuthenticateError, type Client } from "aedes";
import { isOwnTopic } from "./topics.ts";

/** Who a broker connection belongs to: the server itself, or one device by serial number. */
export type BrokerPrincipal = { kind: "service" } | { kind: "device"; sn: string };

export interface BrokerAuthority {
  /** Checks a CONNECT's credentials; null refuses the connection. */
  authenticate(clientId: string, username: string, password: string): Promise<BrokerPrincipal | null>;
}

/**
 * Takes a device's own publication before the broker acknowledges it. A returned promise delays
 * the device's PUBACK until it resolves (the message is durable); a rejection disconnects the
 * device, which then sends the message again after reconnecting.
 */
export type DeviceInbox = (sn: string, topic: string, payload: Buffer) => Promise<void> | null;

export interface EmbeddedBroker {
  readonly port: number;
  /** Feeds one MQTT-over-WebSocket connection to the broker. */
  handleStream(stream: Duplex): void;
  /** Closes the connection a device has open now, if any (its secret was just replaced). */
  disconnectDevice(sn: string): void;
  close(): Promise<void>;
}

function refuse(code: 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

/**
 * The in-process aedes broker used when MQTT_URL is unset: TCP on `port`, WebSocket through the
 * HTTP server. Devices may publish and subscribe only below their own serial number.
 */
export async function startEmbeddedBroker(options: {
  host: string;
  port: number;
  authority: BrokerAuthority;
  inbox?: DeviceInbox | undefined;
  /** Time a connection (TCP or WebSocket) has to send its CONNECT before it is closed. */
  connectTimeoutMs?: number;
  /** The longest keep-alive accepted; a CONNECT asking for none (0) or a longer one is refused. */
  keepaliveMaxS?: number;
}): Promise<EmbeddedBroker> {
  const principals = new WeakMap<Client, BrokerPrincipal>();
  // The open connection of each device, so that replacing its secret can end it too.
  const deviceClients = new Map<string, Client>();
  const broker = await Aedes.createBroker({
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    // Without a keep-alive the broker would never notice a client gone silent.
    keepaliveLimit: options.keepaliveMaxS ?? 600,
    authenticate(client, username, password, done) {
      if (!username || !password) return done(refuse(4, "credentials required"), false);
      options.authority
        .authenticate(client.id, username, password.toString("utf8"))
        .then((principal) => {
          if (!principal) return done(refuse(4, "bad credentials"), false);
          principals.set(client, principal);
          if (principal.kind === "device") deviceClients.set(principal.sn, client);
          done(null, true);
        })
        .catch(() => done(refuse(4, "authentication unavailable"), false));
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // the broker's own messages
      const principal = principals.get(client);
      if (packet.topic.startsWith("$SYS")) return done(new Error("$SYS is reserved"));
      if (principal?.kind === "service") return done(null);
      if (principal?.kind === "device" && isOwnTopic(principal.sn, packet.topic)) {
        const taken = options.inbox?.(principal.sn, packet.topic, packet.payload as Buffer);
        if (!taken) return done(null);
        taken.then(
          () => done(null),
          (error: Error) => done(error),
        );
        return;
      }
      done(new Error("not authorised to publish here"));
    },
    authorizeSubscribe(client, subscription, done) {
      const principal = principals.get(client);
      if (principal?.kind === "service") return done(null, subscription);
      if (principal?.kind === "device" && isOwnTopic(principal.sn, subscription.topic)) {
        return done(null, subscription);
      }
      // A negated subscription answers SUBACK 128 (failure) and keeps the connection, as MQTT 3.1.1 asks.
      done(null, null);
    },
  });

  broker.on("clientDisconnect", (client) => {
    const principal = principals.get(client);
    if (principal?.kind === "device" && deviceClients.get(principal.sn) === client) deviceClients.delete(principal.sn);
  });

  const server: Server = createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;

  return {
    port,
    handleStream: (stream) => {
      broker.handle(stream);
    },
    disconnectDevice: (sn) => {
      deviceClients.get(sn)?.close();
    },
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
