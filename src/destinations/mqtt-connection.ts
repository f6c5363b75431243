import { randomBytes } from 'node:crypto';
import { connectAsync } from 'mqtt';
import { fillTemplate, MQTT_UNSAFE } from '../domain/destinations/destination.js';
import type { BrokerConnection } from './broker-connection.js';

/**
 * MQTT: QoS 1 (the promise ends on the broker's PUBACK), on the topic template filled with the
 * event's type and userId. The client reconnects by itself; while it is offline a publish fails at
 * once rather than wait in the client's queue.
 */
export async function mqttConnection(broker: string): Promise<BrokerConnection> {
  const client = await connectAsync(
    broker,
    {
      clientId: `whereabouts-${randomBytes(6).toString('hex')}`,
      reconnectPeriod: 1_000,
      connectTimeout: 5_000,
    },
    false,
  );
  client.on('error', () => {
    // Reported through the failed publishes; the client reconnects by itself.
  });
  return {
    async publish(target, m) {
      if (!client.connected) throw new Error('not connected to the MQTT broker');
      await client.publishAsync(fillTemplate(target.name, m.event, MQTT_UNSAFE), m.body, { qos: 1 });
    },
    usable: () => !client.disconnecting && !client.disconnected,
    async close() {
      await client.endAsync();
    },
  };
}
