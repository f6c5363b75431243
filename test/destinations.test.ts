import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Destination, newDestination } from '../src/domain/destinations/destination.js';
import { amqpExchange, answers, mqttTopic, natsStream, prefix, redisStream, waitForAll } from './helpers/brokers.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

const PORTS = { redis: 6379, nats: 4222, mqtt: 1883, amqp: 5672 };
const missing = (
  await Promise.all(
    Object.entries(PORTS).map(async ([name, port]) => ((await answers(port)) ? null : `${name} (${port})`)),
  )
).filter((m) => m !== null);
const skip = missing.length
  ? `no broker answers for ${missing.join(', ')} on 127.0.0.1: start them (.ci/run does)`
  : false;

describe('destinations: events to Redis Streams, NATS JetStream, MQTT and AMQP', { skip }, () => {
  const clock = new ManualClock();
  const p = prefix();
  let s: TestServer;
  let redis: Awaited<ReturnType<typeof redisStream>>;
  let filtered: Awaited<ReturnType<typeof redisStream>>;
  let nats: Awaited<ReturnType<typeof natsStream>>;
  let mqtt: Awaited<ReturnType<typeof mqttTopic>>;
  let amqp: Awaited<ReturnType<typeof amqpExchange>>;
  let dests: Record<'redis' | 'nats' | 'mqtt' | 'amqp' | 'filtered' | 'off', Destination>;
  const shop = offset(BROOKLYN, -4000, 2000);
  const hidden = offset(BROOKLYN, 4000, -2000);
  /** Every event the burst's tracks answered, and which user metadata it went with. */
  const events: Array<{ _id: string; type: string; tag: string; optOut: boolean }> = [];
  /** Sends the outbox until a pass finds nothing due, as the server's loop (off here) would. */
  const drain = async () => {
    while ((await s.deps.services.deliveries.runOnce()) > 0) {}
  };

  before(async () => {
    s = await startServer({ clock, env: { SEND_WEBHOOKS: 'off' } });
    [redis, filtered, nats, mqtt, amqp] = await Promise.all([
      redisStream(`${p}-all`),
      redisStream(`${p}-filtered`),
      natsStream(p),
      mqttTopic(1883, p),
      amqpExchange(p),
    ]);
    const add = (url: string, more: Partial<Parameters<typeof newDestination>[0]> = {}) =>
      newDestination({ url, live: false, types: null, ...more }, clock.now());
    dests = {
      redis: add(redis.url()),
      nats: add(nats.url),
      mqtt: add(`mqtt://127.0.0.1:1883/?topic=${p}/{type}/{userId}`),
      amqp: add(amqp.url),
      filtered: add(filtered.url('&maxlen=1000'), {
        types: ['user.entered_geofence'],
        blockedTags: ['private'],
        blockedMetadataKeys: ['optOut'],
      }),
      off: { ...add(redis.url()), enabled: false },
    };
    await s.updateProject('default', (pr) => ({ ...pr, destinations: Object.values(dests) }));
    await putCircle(s, 'shop', 'one', shop, 200);
    await putCircle(s, 'private', 'two', hidden, 200);
    // The burst: twelve users enter the shop (three of them opted out in their metadata) and leave it;
    // three enter the private fence.
    const burst = async (i: number, where: typeof shop, tag: string) => {
      const optOut = i % 4 === 0;
      const body = trackBody(`dest-${tag}-${i}`, where, {
        userId: `user/${tag}+${i}`,
        ...(optOut ? { metadata: { optOut: true } } : {}),
      });
      const res = await track(s, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const e of res.body.events as Array<{ _id: string; type: string }>) events.push({ ...e, tag, optOut });
      return body;
    };
    const bodies = await Promise.all(Array.from({ length: 12 }, (_, i) => burst(i, shop, 'shop')));
    await Promise.all(Array.from({ length: 3 }, (_, i) => burst(i + 1, hidden, 'private')));
    clock.advance(60_000);
    await Promise.all(
      bodies.map(async (b) => {
        const res = await track(s, { ...b, ...trackBody(b.deviceId as string, offset(shop, 3000, 0)) });
        for (const e of res.body.events as Array<{ _id: string; type: string }>)
          events.push({ ...e, tag: 'shop', optOut: 'metadata' in b });
      }),
    );
    await drain();
  });
  after(async () => {
    await s?.close();
    await Promise.allSettled([redis?.close(), filtered?.close(), nats?.close(), mqtt?.close(), amqp?.close()]);
  });

  it('the burst made the events the test expects', () => {
    assert.equal(events.filter((e) => e.type === 'user.entered_geofence').length, 15);
    assert.equal(events.filter((e) => e.type === 'user.exited_geofence').length, 12);
  });

  for (const name of ['redis', 'nats', 'mqtt', 'amqp'] as const) {
    it(`${name}: every event of the burst arrives, none missing, each naming its event id`, async () => {
      const consumer = { redis, nats, mqtt, amqp }[name];
      const want = events.map((e) => e._id);
      const got = await waitForAll(consumer.ids, want);
      const missingIds = want.filter((id) => !got.includes(id));
      assert.deepEqual(missingIds, [], `${missingIds.length} of ${want.length} events never arrived`);
      assert.ok(
        got.every((id) => want.includes(id)),
        'nothing arrives that the burst did not make',
      );
      const log = await s.deps.store.deliveries.list(
        { projectId: s.projectId, live: false },
        { webhookId: dests[name].id, limit: 1000 },
      );
      assert.equal(log.length, want.length, 'a delivery row per event');
      assert.ok(log.every((d) => d.status === 'delivered'));
    });
  }

  it('fills the MQTT topic and AMQP routing key templates; AMQP carries the event id as messageId', async () => {
    const entered = events.find((e) => e.type === 'user.entered_geofence' && e.tag === 'shop')!;
    const m = mqtt.got.find((g) => g.id === entered._id)!;
    // `/` and `+` of the userId are replaced: a userId cannot reach another topic.
    assert.match(m.topic, new RegExp(`^${p}/user\\.entered_geofence/user_shop_\\d+$`));
    const a = amqp.got.find((g) => g.id === entered._id)!;
    assert.equal(a.messageId, entered._id);
    assert.match(a.routingKey, /^user_entered_geofence\.user\/shop\+\d+$/);
  });

  it('filters hold: types allowed, geofence tags and user metadata keys blocked; a disabled destination gets nothing', async () => {
    const want = events.filter((e) => e.type === 'user.entered_geofence' && e.tag !== 'private' && !e.optOut);
    assert.equal(want.length, 9);
    const got = await filtered.ids();
    assert.deepEqual(new Set(got), new Set(want.map((e) => e._id)));
    const off = await s.deps.store.deliveries.list(
      { projectId: s.projectId, live: false },
      { webhookId: dests.off.id, limit: 10 },
    );
    assert.deepEqual(off, []);
  });

  it('the CLI manages destinations and shows them in the delivery log', async () => {
    const { destinationsCommand } = await import('../src/cli/destinations-command.js');
    const { deliveriesCommand } = await import('../src/cli/webhooks-command.js');
    const projects = s.deps.services.projects;
    const added = JSON.parse(
      (
        await destinationsCommand(
          projects,
          'default',
          { add: 'amqp://guest:secret@127.0.0.1:5672/?exchange=x', types: 'user.exited_geofence' },
          clock.now(),
        )
      ).out,
    ) as Array<{ id: string; url: string; types: string[]; enabled: boolean }>;
    const made = added.at(-1)!;
    assert.equal(made.url, 'amqp://guest:***@127.0.0.1:5672/?exchange=x');
    assert.deepEqual(made.types, ['user.exited_geofence']);
    const disabled = JSON.parse((await destinationsCommand(projects, 'default', { disable: made.id }, 0)).out);
    assert.equal(disabled.at(-1).enabled, false);
    const removed = JSON.parse((await destinationsCommand(projects, 'default', { remove: made.id }, 0)).out);
    assert.equal(removed.length, Object.keys(dests).length);
    await assert.rejects(
      destinationsCommand(projects, 'default', { add: 'kafka://h:9092/?topic=t' }, 0),
      /--add must be/,
    );
    await assert.rejects(destinationsCommand(projects, 'default', { add: 'redis://h:6379/' }, 0), /names its stream/);
    const project = (await projects.find('default'))!;
    const log = await deliveriesCommand(s.deps.store, project, { destination: dests.nats.id, limit: '3' });
    const lines = log.out.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.ok(lines.every((l) => l.includes(`destination ${dests.nats.id}`) && l.includes('delivered')));
  });
});
