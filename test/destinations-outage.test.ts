import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newDestination } from '../src/domain/destinations/destination.js';
import { freePort, mqttTopic, prefix, privateMosquitto, waitForAll } from './helpers/brokers.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

const OUTAGE_MS = 30_000;
const port = await freePort();
const broker = privateMosquitto(port);

/**
 * A broker that is down for 30 s and comes back loses nothing: the test runs a Mosquitto of its own
 * (on a free port, so the machine's broker is not disturbed), stops it, tracks while it is down, and
 * starts it again. The other brokers' delivery is in destinations.test.ts.
 */
describe('destinations: a broker down for 30 s loses nothing', {
  skip: broker ? false : 'mosquitto is not installed (apt-get install mosquitto)',
}, () => {
  const clock = new ManualClock();
  const root = prefix();
  let s: TestServer;
  let consumer: Awaited<ReturnType<typeof mqttTopic>>;
  const center = offset(BROOKLYN, 1000, 1000);
  const pass = () => s.deps.services.deliveries.runOnce();

  before(async () => {
    await broker!.start();
    s = await startServer({ clock, env: { SEND_WEBHOOKS: 'off' } });
    consumer = await mqttTopic(port, root);
    const d = newDestination(
      { url: `mqtt://127.0.0.1:${port}/?topic=${root}/{type}`, live: false, types: null },
      clock.now(),
    );
    await s.updateProject('default', (p) => ({ ...p, destinations: [d] }));
    await putCircle(s, 'outage', 'one', center, 200);
  });
  after(async () => {
    await s?.close();
    await consumer?.close();
    await broker?.stop();
  });

  it('sends what was tracked before, during and after the outage, at least once each', async () => {
    const ids: string[] = [];
    const burst = async (label: string) => {
      const res = await Promise.all(
        Array.from({ length: 5 }, (_, i) => track(s, trackBody(`${label}-${i}`, offset(center, i * 10, 0)))),
      );
      for (const r of res) for (const e of r.body.events as Array<{ _id: string }>) ids.push(e._id);
    };
    await burst('before');
    await pass();
    assert.equal((await waitForAll(consumer.ids, ids)).length >= ids.length, true, 'sent while the broker is up');

    await broker!.stop();
    const down = Date.now();
    await burst('during');
    // The outbox keeps trying while the broker is down; every attempt fails and is kept for later.
    while (Date.now() - down < OUTAGE_MS) {
      clock.advance(600_000);
      await pass();
      await new Promise((r) => setTimeout(r, 5_000));
    }
    const log = await s.deps.store.deliveries.list({ projectId: s.projectId, live: false }, { limit: 100 });
    const waiting = log.filter((d) => d.status === 'pending');
    assert.equal(waiting.length, 5, 'the outage deliveries wait, none given up');
    assert.ok(
      waiting.every((d) => d.attempts >= 2 && d.lastError),
      JSON.stringify(waiting[0]),
    );

    await broker!.start();
    await consumer.resubscribe();
    await burst('after');
    const deadline = Date.now() + 20_000;
    let got: string[] = [];
    while (Date.now() < deadline) {
      clock.advance(600_000);
      await pass();
      got = await consumer.ids();
      if (ids.every((id) => got.includes(id))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const lost = ids.filter((id) => !got.includes(id));
    assert.deepEqual(lost, [], `${lost.length} of ${ids.length} events lost`);
    const after = await s.deps.store.deliveries.list({ projectId: s.projectId, live: false }, { limit: 100 });
    assert.equal(after.length, 15);
    assert.ok(after.every((d) => d.status === 'delivered'));
  });
});
