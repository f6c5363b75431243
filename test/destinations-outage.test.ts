import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StorageType } from 'nats';
import { type DestinationKind, newDestination } from '../src/domain/destinations/destination.js';
import { amqpExchange, mqttTopic, natsStream, prefix, redisStream } from './helpers/brokers.js';
import {
  type PrivateBroker,
  privateMosquitto,
  privateNats,
  privateRabbit,
  privateRedis,
} from './helpers/private-brokers.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

const OUTAGE_MS = 30_000;
const KINDS = ['redis', 'nats', 'mqtt', 'amqp'] as const satisfies readonly DestinationKind[];
const PACKAGES = { redis: 'redis-server', nats: 'nats-server', mqtt: 'mosquitto', amqp: 'rabbitmq-server' };
const found = {
  redis: await privateRedis(),
  nats: await privateNats(),
  mqtt: await privateMosquitto(),
  amqp: await privateRabbit(),
};
const missing = KINDS.filter((k) => !found[k]).map((k) => PACKAGES[k]);
const brokers = found as Record<(typeof KINDS)[number], PrivateBroker>;
const all = (step: (b: PrivateBroker) => Promise<void>) => Promise.all(KINDS.map((k) => step(brokers[k])));

/**
 * Issue 53: a broker that is stopped for 30 s and started again loses nothing, for each of Redis
 * Streams, NATS JetStream, MQTT and AMQP. Each broker is the test's own (free ports, temporary files),
 * so the machine's brokers and the other tests are untouched; the four are down in the same 30 s.
 * Each keeps what a production broker keeps over a restart: Redis its append-only file, NATS its
 * file-stored stream, RabbitMQ its durable exchange and queue; Mosquitto keeps nothing, so its consumer
 * subscribes again before the outbox publishes. The outbox must publish every event owed, whatever
 * each client did while its broker was away.
 */
describe('destinations: every broker down for 30 s and back loses nothing', {
  skip: missing.length ? `not installed: ${missing.join(', ')} (apt-get install ${missing.join(' ')})` : false,
}, () => {
  const clock = new ManualClock();
  const root = prefix();
  let s: TestServer;
  let consumers: {
    redis: Awaited<ReturnType<typeof redisStream>>;
    nats: Awaited<ReturnType<typeof natsStream>>;
    mqtt: Awaited<ReturnType<typeof mqttTopic>>;
    amqp: Awaited<ReturnType<typeof amqpExchange>>;
  };
  const center = offset(BROOKLYN, 1000, 1000);
  const pass = () => s.deps.services.deliveries.runOnce();
  const deliveries = () => s.deps.store.deliveries.list({ projectId: s.projectId, live: false }, { limit: 1000 });

  before(async () => {
    // Settled, not Promise.all: when a broker fails to start, the server that did start is still
    // assigned, so `after` closes it and the test process can end.
    const started = await Promise.allSettled([
      startServer({ clock, env: { SEND_WEBHOOKS: 'off' } }).then((server) => {
        s = server;
      }),
      all((b) => b.start()),
    ]);
    for (const r of started) if (r.status === 'rejected') throw r.reason;
    const [redis, nats, mqtt, amqp] = await Promise.all([
      redisStream(root, brokers.redis.port),
      natsStream(root, brokers.nats.port, StorageType.File),
      mqttTopic(brokers.mqtt.port, root),
      amqpExchange(root, { port: brokers.amqp.port, durable: true }),
    ]);
    consumers = { redis, nats, mqtt, amqp };
    const urls = {
      redis: consumers.redis.url(),
      nats: consumers.nats.url,
      mqtt: `mqtt://127.0.0.1:${brokers.mqtt.port}/?topic=${root}/{type}`,
      amqp: consumers.amqp.url,
    };
    const destinations = KINDS.map((k) => newDestination({ url: urls[k], live: false, types: null }, clock.now()));
    await s.updateProject('default', (p) => ({ ...p, destinations }));
    await putCircle(s, 'outage', 'one', center, 200);
  });
  after(async () => {
    await s?.close();
    await Promise.allSettled(Object.values(consumers ?? {}).map((c) => c.close()));
    await Promise.allSettled(KINDS.map((k) => brokers[k]?.close()));
  });

  it('sends what was tracked before, during and after the outage to each broker, at least once each', async () => {
    const ids: string[] = [];
    const burst = async (label: string) => {
      const res = await Promise.all(
        Array.from({ length: 5 }, (_, i) => track(s, trackBody(`${label}-${i}`, offset(center, i * 10, 0)))),
      );
      for (const r of res) for (const e of r.body.events as Array<{ _id: string }>) ids.push(e._id);
    };
    /** Passes (each due row due again, as the clock jumps past every backoff) until each broker has `want`. */
    const sendUntilAll = async (want: readonly string[], ms: number) => {
      const deadline = Date.now() + ms;
      const lost = async () => {
        const out: Partial<Record<(typeof KINDS)[number], string[]>> = {};
        for (const k of KINDS) {
          // A broker just started again may not answer its consumer yet (JetStream's API has timed out
          // while the client reconnected): that pass counts nothing from it, and the next one asks again.
          let unread: string | null = null;
          const got = new Set(
            await consumers[k].ids().catch((err: Error) => {
              unread = `(its consumer could not read: ${err.message})`;
              return [];
            }),
          );
          const gone = want.filter((id) => !got.has(id));
          if (gone.length) out[k] = unread ? [unread, ...gone] : gone;
        }
        return out;
      };
      for (;;) {
        clock.advance(600_000);
        await pass();
        const now = await lost();
        if (Object.keys(now).length === 0 || Date.now() > deadline) return now;
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    await burst('before');
    assert.deepEqual(await sendUntilAll(ids, 10_000), {}, 'sent while the brokers are up');

    await all((b) => b.stop());
    try {
      const down = Date.now();
      await burst('during');
      // The outbox keeps trying while the brokers are down; every attempt fails and is kept for later.
      while (Date.now() - down < OUTAGE_MS) {
        clock.advance(600_000);
        await pass();
        await new Promise((r) => setTimeout(r, Math.min(5_000, OUTAGE_MS - (Date.now() - down))));
      }
      const waiting = (await deliveries()).filter((d) => d.status === 'pending');
      assert.equal(waiting.length, 5 * KINDS.length, 'the outage deliveries wait, none given up');
      assert.ok(
        waiting.every((d) => d.attempts >= 2 && d.lastError),
        JSON.stringify(waiting.find((d) => d.attempts < 2 || !d.lastError)),
      );
    } finally {
      // Back even when an assertion failed, so that every client closes as it would in production.
      await all((b) => b.start());
    }
    await consumers.mqtt.resubscribe();
    await consumers.amqp.resubscribe();
    await burst('after');
    assert.equal(ids.length, 15);
    assert.deepEqual(await sendUntilAll(ids, 20_000), {}, 'the events no consumer got, by broker');
    const log = await deliveries();
    assert.equal(log.length, 15 * KINDS.length);
    assert.deepEqual(
      log.filter((d) => d.status !== 'delivered'),
      [],
    );
  });
});
