import { connect, headers } from 'nats';
import type { BrokerConnection } from './broker-connection.js';

/**
 * NATS JetStream: a publish acknowledged by the stream that captures the subject (one must exist:
 * without it the publish fails with "no responders" and is tried again). `Nats-Msg-Id` is the delivery
 * id, so JetStream drops a retried publish it already stored; `Whereabouts-Event-Id` names the event.
 */
export async function natsConnection(broker: string): Promise<BrokerConnection> {
  const url = new URL(broker);
  const nc = await connect({
    servers: url.host,
    // nats://user:pass@host: user and password; nats://:token@host: a token.
    ...(url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : url.password
        ? { token: decodeURIComponent(url.password) }
        : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    timeout: 5_000,
  });
  const js = nc.jetstream({ timeout: 5_000 });
  let disconnected = false;
  (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') disconnected = true;
      else if (s.type === 'reconnect') disconnected = false;
    }
  })().catch(() => {});
  return {
    async publish(target, m) {
      if (disconnected) throw new Error('not connected to the NATS server');
      const h = headers();
      h.set('Whereabouts-Event-Id', m.event.id);
      await js.publish(target.name, Buffer.from(m.body), { msgID: m.deliveryId, headers: h });
    },
    usable: () => !nc.isClosed(),
    async close() {
      await nc.drain().catch(() => nc.close());
    },
  };
}
