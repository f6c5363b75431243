import type { DestinationKind } from '../domain/destinations/destination.js';
import { destinationTarget } from '../domain/destinations/destination.js';
import type { DestinationMessage, PublishDelivery } from '../domain/webhooks/delivery-service.js';
import { presentEvent } from '../http/presenters/event-presenter.js';
import { amqpConnection } from './amqp-connection.js';
import type { BrokerConnection } from './broker-connection.js';
import { mqttConnection } from './mqtt-connection.js';
import { natsConnection } from './nats-connection.js';
import { redisConnection } from './redis-connection.js';

/** A publish not acknowledged in this long fails, and the delivery is tried again later. */
const PUBLISH_TIMEOUT_MS = 10_000;

const OPEN: Record<DestinationKind, (broker: string) => Promise<BrokerConnection>> = {
  redis: redisConnection,
  nats: natsConnection,
  mqtt: mqttConnection,
  amqp: amqpConnection,
};

/**
 * The outbox's broker side: one connection per broker address (scheme, credentials, host and port),
 * opened on first use and shared by every destination on that broker, then kept until `close` (the
 * server's graceful shutdown). A connection that could not be opened is forgotten, so the next
 * attempt tries again.
 */
export class BrokerPool {
  readonly #connections = new Map<string, Promise<BrokerConnection>>();
  #closed = false;

  /** The outbox's `PublishDelivery`. */
  readonly publish: PublishDelivery = (m) => this.#publish(m);

  async #publish({ destination, deliveryId, event }: DestinationMessage): Promise<void> {
    if (this.#closed) throw new Error('the server is closing');
    const target = destinationTarget(destination.url, 'url');
    const connection = await withTimeout(this.#connection(target.kind, target.broker), 'connecting');
    const body = JSON.stringify(presentEvent(event));
    await withTimeout(connection.publish(target, { event, body, deliveryId }), 'publishing');
  }

  #connection(kind: DestinationKind, broker: string): Promise<BrokerConnection> {
    const key = broker;
    const held = this.#connections.get(key);
    if (held) {
      return held.then((c) => {
        if (c.usable()) return c;
        if (this.#connections.get(key) === held) this.#connections.delete(key);
        c.close().catch(() => {});
        return this.#connection(kind, broker);
      });
    }
    const opening = OPEN[kind](broker);
    this.#connections.set(key, opening);
    opening.catch(() => {
      if (this.#connections.get(key) === opening) this.#connections.delete(key);
    });
    return opening;
  }

  /** Closes every connection (after the outbox's last pass). */
  async close(): Promise<void> {
    this.#closed = true;
    const open = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.allSettled(open.map(async (c) => (await c).close()));
  }
}

function withTimeout<T>(p: Promise<T>, doing: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer from the broker in ${PUBLISH_TIMEOUT_MS / 1000} s ${doing}`)),
      PUBLISH_TIMEOUT_MS,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
