import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { DeliveryRecord } from '../src/domain/ports/delivery-store.js';
import { DEFAULT_DELIVERY_POLICY, DeliveryService } from '../src/domain/webhooks/delivery-service.js';
import { newWebhook, type Webhook } from '../src/domain/webhooks/webhook.js';
import { httpSender } from '../src/webhooks/http-sender.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';
import { startTrip } from './helpers/trips.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { event: { _id: string; type: string; live: boolean }; user: { deviceId: string } };
}

/** A webhook receiver on a free loopback port: keeps what it gets, answers each path's queued statuses (else 200). */
async function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url!, headers: req.headers, raw, body: JSON.parse(raw) });
      res.statusCode = answers.get(req.url!)?.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    answer: (path: string, ...statuses: number[]) => answers.set(path, statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on (one just released). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('webhooks', () => {
  const clock = new ManualClock();
  let s: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let hooks: Record<'all' | 'exits' | 'live' | 'off', Webhook>;
  const center = offset(BROOKLYN, -4000, 2000);
  const tenant = () => ({ projectId: s.projectId, live: false });
  /** Runs the sender once, as the server's loop (off here) would every second. */
  const send = () => s.deps.services.deliveries.runOnce();
  const log = async (w: Webhook): Promise<DeliveryRecord[]> =>
    s.deps.store.deliveries.list({ projectId: s.projectId, live: w.live }, { webhookId: w.id, limit: 100 });

  before(async () => {
    // This test sends the outbox itself (`runOnce`, `start`): the server's own loop would race it.
    s = await startServer({ clock, env: { SEND_WEBHOOKS: 'off' } });
    receiver = await startReceiver();
    const at = (path: string, live = false, types: string[] | null = null) =>
      newWebhook({ url: `${receiver.base}${path}`, live, types }, clock.now());
    hooks = {
      all: at('/all'),
      exits: at('/exits', false, ['user.exited_geofence']),
      live: at('/live', true),
      off: { ...at('/off'), enabled: false },
    };
    await s.updateProject('default', (p) => ({ ...p, webhooks: Object.values(hooks) }));
    await putCircle(s, 'hooks', 'shop', center, 200);
    await putCircle(s, 'hooks', 'shop', center, 200, {}, s.keys.live.secret);
  });
  after(async () => {
    await s.close();
    await receiver.close();
  });

  it("posts an entry to the environment's webhooks as {event, user}, signed both ways", async () => {
    const res = await track(s, trackBody('hook-dev-1', center));
    assertOk(res);
    const [entered] = res.body.events as Array<{ _id: string; type: string }>;
    assert.equal(entered?.type, 'user.entered_geofence');
    await send();
    const [got, ...more] = receiver.at('/all');
    assert.ok(got, 'the webhook received the entry');
    assert.equal(more.length, 0);
    assert.equal(got.body.event._id, entered._id);
    assert.equal(got.body.event.type, 'user.entered_geofence');
    assert.equal(got.body.user.deviceId, 'hook-dev-1');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['whereabouts-event-id'], entered._id);
    // The hosted service's scheme: HMAC-SHA1 of the signing id, keyed by the secret.
    const signingId = got.headers['x-radar-signing-id'] as string;
    assert.equal(
      got.headers['x-radar-signature'],
      createHmac('sha1', hooks.all.secret).update(signingId).digest('hex'),
    );
    // Ours: HMAC-SHA256 of "<t>.<body>".
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(got.headers['whereabouts-signature'] as string);
    assert.ok(m, String(got.headers['whereabouts-signature']));
    assert.equal(m[2], createHmac('sha256', hooks.all.secret).update(`${m[1]}.${got.raw}`).digest('hex'));
    assert.equal(Number(m[1]), Math.floor(clock.now() / 1000));
    // Not the exits-only, the live or the disabled webhook.
    assert.deepEqual(
      receiver.received.map((r) => r.path),
      ['/all'],
    );
    const [row] = await log(hooks.all);
    assert.equal(row?.status, 'delivered');
    assert.equal(row?.attempts, 1);
    assert.equal(row?.lastStatus, 200);
    assert.deepEqual(await log(hooks.off), []);
  });

  it('a webhook with types receives only those', async () => {
    clock.advance(60_000);
    const res = await track(s, trackBody('hook-dev-1', offset(center, 3000, 0)));
    assert.deepEqual(
      res.body.events.map((e: { type: string }) => e.type),
      ['user.exited_geofence'],
    );
    await send();
    assert.equal(receiver.at('/exits').length, 1);
    assert.equal(receiver.at('/exits')[0]!.body.event.type, 'user.exited_geofence');
    assert.equal(receiver.at('/all').length, 2);
  });

  it('live events go to live webhooks only', async () => {
    const res = await track(s, trackBody('hook-live', center), s.keys.live.publishable);
    assertOk(res);
    await send();
    const live = receiver.at('/live');
    assert.equal(live.length, 1);
    assert.equal(live[0]!.body.event.live, true);
    assert.equal(receiver.at('/all').length, 2, 'the test webhook got nothing of the live environment');
  });

  it('retries a failing receiver with growing waits, the same delivery and event each time, until a 2xx', async () => {
    receiver.answer('/all', 503, 500);
    const before = receiver.at('/all').length;
    const res = await track(s, trackBody('hook-dev-2', center));
    const eventId = res.body.events[0]._id as string;
    await send();
    let [row] = (await log(hooks.all)).filter((d) => d.eventId === eventId);
    assert.equal(row?.status, 'pending');
    assert.equal(row?.attempts, 1);
    assert.equal(row?.lastStatus, 503);
    const firstWait = row!.nextAttemptAt! - clock.now();
    assert.ok(firstWait >= 24_000 && firstWait <= 36_000, `first wait ${firstWait} ms`);
    await send();
    assert.equal(receiver.at('/all').length, before + 1, 'nothing is sent again before its time');
    clock.advance(firstWait);
    await send();
    [row] = (await log(hooks.all)).filter((d) => d.eventId === eventId);
    assert.equal(row?.attempts, 2);
    assert.equal(row?.lastStatus, 500);
    const secondWait = row!.nextAttemptAt! - clock.now();
    assert.ok(secondWait >= 48_000 && secondWait <= 72_000, `second wait ${secondWait} ms`);
    clock.advance(secondWait);
    await send();
    [row] = (await log(hooks.all)).filter((d) => d.eventId === eventId);
    assert.equal(row?.status, 'delivered');
    assert.equal(row?.attempts, 3);
    const tries = receiver.at('/all').slice(before);
    assert.equal(tries.length, 3);
    assert.ok(tries.every((t) => t.body.event._id === eventId && t.headers['whereabouts-event-id'] === eventId));
    assert.equal(new Set(tries.map((t) => t.headers['whereabouts-delivery-id'])).size, 1);
  });

  it('gives up after twelve attempts and says why; an unreachable receiver is a failed attempt', async () => {
    const closed = newWebhook(
      { url: `http://127.0.0.1:${await closedPort()}/x`, live: false, types: null },
      clock.now(),
    );
    await s.updateProject('default', (p) => ({ ...p, webhooks: [closed] }));
    try {
      assertOk(await track(s, trackBody('hook-dev-3', center)));
      for (let i = 0; i < 12; i++) {
        await send();
        // Past the longest wait: six hours, +20%.
        clock.advance(8 * 3_600_000);
      }
      const [row] = await log(closed);
      assert.equal(row?.status, 'failed');
      assert.equal(row?.attempts, 12);
      assert.equal(row?.lastStatus, null);
      assert.match(row?.lastError ?? '', /ECONNREFUSED/);
      assert.equal(row?.nextAttemptAt, null);
      await send();
      assert.equal((await log(closed))[0]?.attempts, 12, 'a failed delivery is not tried again');
    } finally {
      await s.updateProject('default', (p) => ({ ...p, webhooks: Object.values(hooks) }));
    }
  });

  it('events of trips changed through the API are delivered too', async () => {
    const before = receiver.at('/all').length;
    assertOk(await track(s, trackBody('hook-trip', center, { userId: 'hook-trip-user' })));
    const started = await startTrip(s, { userId: 'hook-trip-user', externalId: 'hook-trip' });
    assertOk(started);
    await send();
    const types = receiver
      .at('/all')
      .slice(before)
      .map((r) => r.body.event.type);
    assert.ok(types.includes('user.started_trip'), types.join());
  });

  it('two senders (two API processes) post each delivery once', async () => {
    const before = receiver.at('/all').length;
    for (let i = 0; i < 6; i++) assertOk(await track(s, trackBody(`hook-pair-${i}`, center)));
    const other = new DeliveryService(s.deps.store, httpSender(clock), clock);
    await Promise.all([send(), other.runOnce(), send(), other.runOnce()]);
    const ids = receiver
      .at('/all')
      .slice(before)
      .map((r) => r.body.event._id);
    assert.equal(ids.length, 6);
    assert.equal(new Set(ids).size, 6);
  });

  it('a receiver that never answers times out as a failed attempt, and holds up only its own pass', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const hung = newWebhook(
      { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, live: false, types: null },
      clock.now(),
    );
    try {
      await s.updateProject('default', (p) => ({ ...p, webhooks: [hung] }));
      const stuck = await track(s, trackBody('hook-hung', center));
      assertOk(stuck);
      await s.updateProject('default', (p) => ({ ...p, webhooks: [...Object.values(hooks), hung] }));
      const before = receiver.at('/all').length;
      assertOk(await track(s, trackBody('hook-after-hung', center)));
      const sender = new DeliveryService(s.deps.store, httpSender(clock, 300), clock, {
        ...DEFAULT_DELIVERY_POLICY,
        batch: 1,
      });
      const first = sender.start()!;
      const second = sender.start()!;
      assert.equal(await second, 1);
      assert.equal(receiver.at('/all').length, before + 1, 'the second pass delivered while the first waited');
      assert.equal(await first, 1);
      const row = (await log(hung)).find((d) => d.eventId === stuck.body.events[0]._id);
      assert.equal(row?.status, 'pending');
      assert.equal(row?.lastError, 'no answer within 300 ms');
    } finally {
      silent.closeAllConnections();
      silent.close();
      await s.updateProject('default', (p) => ({ ...p, webhooks: Object.values(hooks) }));
    }
  });

  it("a multiple webhook receives a user's events together, five to a post, as {events, user}", async () => {
    const spot = offset(center, 8000, 0);
    for (let f = 0; f < 7; f++) await putCircle(s, 'hooks-many', `f${f}`, offset(spot, f * 3, 0), 150);
    const many = newWebhook({ url: `${receiver.base}/many`, live: false, types: null, mode: 'multiple' }, clock.now());
    await s.updateProject('default', (p) => ({ ...p, webhooks: [many] }));
    try {
      const res = await track(s, trackBody('hook-many', spot));
      const ids = (res.body.events as Array<{ _id: string }>).map((e) => e._id);
      assert.equal(ids.length, 7);
      await send();
      const posts = receiver
        .at('/many')
        .map((r) => r.body as unknown as { events: Array<{ _id: string }>; user: { deviceId: string } });
      assert.deepEqual(posts.map((p) => p.events.length).sort(), [2, 5]);
      assert.deepEqual(posts.flatMap((p) => p.events.map((e) => e._id)).sort(), [...ids].sort());
      assert.ok(posts.every((p) => p.user.deviceId === 'hook-many'));
      const headers = receiver.at('/many')[0]!.headers;
      assert.equal((headers['whereabouts-event-id'] as string).split(',').length, posts[0]!.events.length);
      assert.ok((await log(many)).every((d) => d.status === 'delivered'));
    } finally {
      await s.updateProject('default', (p) => ({ ...p, webhooks: Object.values(hooks) }));
    }
  });

  it('a refused track owes no delivery', async () => {
    const count = (await log(hooks.all)).length;
    assertError(await track(s, { ...trackBody('hook-bad', center), latitude: 91 }), 400, 'latitude');
    assert.equal((await log(hooks.all)).length, count);
  });

  it('deliveries go with their events when the retention policy removes those', async () => {
    assert.ok((await log(hooks.all)).length > 0);
    clock.advance(366 * 86_400_000);
    await s.deps.services.retention.sweep();
    assert.deepEqual(await log(hooks.all), []);
    assert.equal(tenant().live, false);
  });
});
