import amqp from 'amqplib';
import { AMQP_UNSAFE, fillTemplate } from '../domain/destinations/destination.js';
import type { BrokerConnection } from './broker-connection.js';

/**
 * AMQP 0-9-1 (RabbitMQ): a persistent message on a confirm channel, to the exchange with the routing
 * key template filled; the promise ends on the broker's confirm. amqplib does not reconnect: a closed
 * connection or channel (the broker went away, or refused a publish to a missing exchange) makes the
 * connection unusable and the pool opens a new one on the next attempt.
 */
export async function amqpConnection(broker: string): Promise<BrokerConnection> {
  const connection = await amqp.connect(broker, { timeout: 5_000 });
  let open = true;
  const lost = () => {
    open = false;
  };
  connection.on('error', lost);
  connection.on('close', lost);
  const channel = await connection.createConfirmChannel().catch(async (err: unknown) => {
    await connection.close().catch(() => {});
    throw err;
  });
  channel.on('error', lost);
  channel.on('close', lost);
  return {
    publish(target, m) {
      if (!open) return Promise.reject(new Error('the AMQP connection is closed'));
      return new Promise<void>((resolve, reject) => {
        channel.publish(
          target.name,
          fillTemplate(target.routingKey, m.event, AMQP_UNSAFE),
          Buffer.from(m.body),
          {
            persistent: true,
            contentType: 'application/json',
            messageId: m.event.id,
            headers: { 'Whereabouts-Delivery-Id': m.deliveryId },
          },
          (err) => (err ? reject(err) : resolve()),
        );
      });
    },
    usable: () => open,
    async close() {
      if (!open) return;
      open = false;
      await channel.close().catch(() => {});
      await connection.close().catch(() => {});
    },
  };
}
