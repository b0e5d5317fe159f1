import { type OwnMosquitto, ownMosquitto } from "./mosquitto.ts";

/**
 * A Mosquitto of the test's own for several consoles on one database: the embedded broker serves
 * one console only, so consoles that share a database share a broker, each with a client id of
 * its own in one shared-subscription group. `env()` gives the next console's settings.
 */
export async function sharedBroker(name: string) {
  const broker: OwnMosquitto = await ownMosquitto({ persistence: false });
  const group = `ess-${name}-${process.pid}`;
  let next = 0;
  return {
    broker,
    env: () => ({ MQTT_URL: broker.url, MQTT_SHARED_GROUP: group, MQTT_CLIENT_ID: `${group}-${next++}` }),
    stop: () => broker.stop("SIGTERM"),
  };
}
