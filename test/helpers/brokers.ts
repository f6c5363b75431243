import { randomBytes } from 'node:crypto';
import net from 'node:net';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { connectAsync, type MqttClient } from 'mqtt';
import { connect as natsConnect, StorageType } from 'nats';

/**
 * Consumers on real brokers (the machine's Redis 6379, NATS JetStream 4222, Mosquitto 1883, RabbitMQ
 * 5672 unless a port is given: private-brokers.ts starts others), each listening on names of its own
 * (a random prefix). Each `ids()` answers the event ids received so far, repeats included; each
 * `close()` removes what it made where the broker is up, and ends its connection in any case.
 */
export const prefix = () => `wtest${randomBytes(4).toString('hex')}`;

/** Whether something answers on the loopback port. */
export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function redisStream(stream: string, port = 6379) {
  const client = new Redis(`redis://127.0.0.1:${port}`);
  client.on('error', () => {}); // a broker stopped by the test: the client reconnects by itself
  return {
    url: (extra = '') => `redis://127.0.0.1:${port}/?stream=${stream}${extra}`,
    async ids(): Promise<string[]> {
      const entries = await client.xrange(stream, '-', '+');
      return entries.map(([, fields]) => {
        const f = Object.fromEntries(fields.flatMap((v, i) => (i % 2 === 0 ? [[v, fields[i + 1]]] : [])));
        // The `id` field and the event JSON's `_id` must agree.
        const event = JSON.parse(f.event!) as { _id: string };
        if (event._id !== f.id) throw new Error(`stream entry id ${f.id} differs from its event's _id ${event._id}`);
        return f.id!;
      });
    },
    async close() {
      if (client.status === 'ready') await client.del(stream);
      client.disconnect();
    },
  };
}

/** A JetStream stream capturing `<name>.>`; in memory unless `storage` (a file stream outlives a restart). */
export async function natsStream(name: string, port = 4222, storage = StorageType.Memory) {
  const nc = await natsConnect({ servers: `127.0.0.1:${port}`, maxReconnectAttempts: -1 });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name, subjects: [`${name}.>`], storage });
  return {
    url: `nats://127.0.0.1:${port}/?subject=${name}.events`,
    async ids(): Promise<string[]> {
      const info = await jsm.streams.info(name);
      const out: string[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
        const m = await jsm.streams.getMessage(name, { seq });
        out.push((m.json() as { _id: string })._id);
      }
      return out;
    },
    async close() {
      await jsm.streams.delete(name).catch(() => {});
      await nc.close();
    },
  };
}

export async function mqttTopic(port: number, root: string) {
  const got: Array<{ topic: string; id: string }> = [];
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 200 });
  client.on('message', (topic, payload) =>
    got.push({ topic, id: (JSON.parse(payload.toString()) as { _id: string })._id }),
  );
  client.on('error', () => {});
  await client.subscribeAsync(`${root}/#`, { qos: 1 });
  return {
    client: client as MqttClient,
    got,
    ids: async () => got.map((g) => g.id),
    /** After the broker came back: waits for the reconnect and subscribes again (a new broker keeps no session). */
    async resubscribe() {
      while (!client.connected) await new Promise((r) => setTimeout(r, 100));
      await client.subscribeAsync(`${root}/#`, { qos: 1 });
    },
    close: () => client.endAsync(true),
  };
}

/**
 * A topic exchange and a queue bound to it with `#`. `durable`: both outlive a broker's restart (the
 * queue named after the exchange), so that what is published while the consumer reconnects waits in
 * the queue; otherwise an exclusive queue of the connection's own.
 */
export async function amqpExchange(exchange: string, { port = 5672, durable = false } = {}) {
  const got: Array<{ routingKey: string; messageId: string; id: string }> = [];
  let connection: amqp.ChannelModel;
  let channel: amqp.Channel;
  const subscribe = async () => {
    connection = await amqp.connect(`amqp://127.0.0.1:${port}`);
    connection.on('error', () => {}); // the broker went away: `resubscribe` opens another connection
    channel = await connection.createChannel();
    await channel.assertExchange(exchange, 'topic', { durable });
    const { queue } = await channel.assertQueue(durable ? exchange : '', { durable, exclusive: !durable });
    await channel.bindQueue(queue, exchange, '#');
    await channel.consume(
      queue,
      (m) => {
        if (!m) return;
        got.push({
          routingKey: m.fields.routingKey,
          messageId: String(m.properties.messageId),
          id: (JSON.parse(m.content.toString()) as { _id: string })._id,
        });
      },
      { noAck: true },
    );
  };
  await subscribe();
  return {
    url: `amqp://127.0.0.1:${port}/?exchange=${exchange}&routingKey={type}.{userId}`,
    got,
    ids: async () => got.map((g) => g.id),
    /** After the broker came back: a new connection consuming the same (durable) queue. */
    resubscribe: subscribe,
    async close() {
      await channel.deleteExchange(exchange).catch(() => {});
      if (durable) await channel.deleteQueue(exchange).catch(() => {});
      await connection.close().catch(() => {});
    },
  };
}

/** Polls `ids` until every id of `want` is in it, or `ms` pass; returns the last answer. */
export async function waitForAll(ids: () => Promise<string[]>, want: readonly string[], ms = 8000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await ids();
    const have = new Set(got);
    if (want.every((id) => have.has(id)) || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}
