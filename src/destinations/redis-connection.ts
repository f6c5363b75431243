import { Redis } from 'ioredis';
import type { BrokerConnection } from './broker-connection.js';

/**
 * Redis Streams: `XADD <stream> MAXLEN ~ <n> * event <json> id <eventId>`. The client reconnects by
 * itself; without its offline queue a command fails at once while Redis is down.
 */
export async function redisConnection(broker: string): Promise<BrokerConnection> {
  const client = new Redis(broker, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 250, 2_000),
  });
  client.on('error', () => {
    // Reported through the failed publishes (the delivery log); the client reconnects by itself.
  });
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw err;
  }
  return {
    async publish(target, m) {
      await client.xadd(target.name, 'MAXLEN', '~', target.maxLen, '*', 'event', m.body, 'id', m.event.id);
    },
    usable: () => client.status !== 'end',
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
