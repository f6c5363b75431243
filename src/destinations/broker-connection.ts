import type { DestinationTarget } from '../domain/destinations/destination.js';
import type { LocationEvent } from '../domain/events/event.js';

/** One message as every broker gets it: the event as `GET /v1/events/:id` shows it, and its ids. */
export interface BrokerMessage {
  event: LocationEvent;
  /** `JSON.stringify` of the presented event (it carries `_id` and the user snapshot). */
  body: string;
  deliveryId: string;
}

/**
 * A connection to one broker, shared by every destination on it. `publish` resolves once the broker
 * has acknowledged the message (Redis: XADD answered; NATS: JetStream ack; MQTT: PUBACK; AMQP:
 * publisher confirm) and rejects at once while the broker is unreachable, so that the outbox row is
 * tried again later instead of piling up in the client's memory.
 */
export interface BrokerConnection {
  publish(target: DestinationTarget, message: BrokerMessage): Promise<void>;
  /** False once the connection is gone for good (it does not reconnect itself): the pool opens a new one. */
  usable(): boolean;
  close(): Promise<void>;
}
