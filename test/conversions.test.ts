import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { newWebhook } from '../src/domain/webhooks/webhook.js';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, track, trackBody } from './helpers/tracking.js';

/** A loopback receiver that keeps every body posted to it. */
async function startReceiver() {
  const bodies: Array<{ event: { _id: string; type: string }; user: { userId?: string } }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('conversions: POST /v1/events, GET /v1/events/conversions', () => {
  // 2026-03-10T23:00:00.000Z: an hour before a UTC day ends.
  const clock = new ManualClock(Date.parse('2026-03-10T23:00:00.000Z'));
  let s: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const home = offset(BROOKLYN, 2000, 0);
  const pk = () => s.keys.test.publishable;
  const sk = () => s.keys.test.secret;
  const convert = (json: Record<string, unknown>, key = pk()) => s.request('POST', '/v1/events', { key, json });
  const summary = (query: string) => s.request('GET', `/v1/events/conversions${query}`, { key: sk() });

  before(async () => {
    s = await startServer({ clock, env: { SEND_WEBHOOKS: 'off' } });
    receiver = await startReceiver();
    const hook = newWebhook({ url: receiver.url, live: false, types: null }, clock.now());
    await s.updateProject('default', (p) => ({ ...p, webhooks: [hook] }));
    assertOk(await track(s, trackBody('conv-dev-1', home, { userId: 'conv-user-1' })));
    assertOk(await track(s, trackBody('conv-dev-2', home)));
  });
  after(async () => {
    await s.close();
    await receiver.close();
  });

  it('stores a custom event of the user, as the web SDK sends it, and answers {event}', async () => {
    const res = await convert({
      name: 'purchase',
      userId: 'conv-user-1',
      deviceId: 'conv-dev-1',
      installId: null,
      metadata: { sku: 'abc', revenue: 12.5 },
      createdAt: '2026-03-10T22:59:00.000Z',
    });
    assertOk(res);
    const e = res.body.event;
    assert.match(e._id, /^[0-9a-f]{24}$/);
    assert.equal(e.type, 'purchase');
    assert.equal(e.custom, true);
    assert.deepEqual(e.metadata, { sku: 'abc', revenue: 12.5 });
    assert.equal(e.createdAt, '2026-03-10T22:59:00.000Z');
    assertIsoMs(e.actualCreatedAt, 'actualCreatedAt');
    assert.equal(e.user.userId, 'conv-user-1');
    assert.deepEqual(e.location, { type: 'Point', coordinates: home }, 'where the user was last tracked');
    assert.equal(e.confidence, 3);

    const listed = await s.request('GET', '/v1/events?type=purchase', { key: sk() });
    assertOk(listed);
    assert.deepEqual(
      listed.body.events.map((x: { _id: string }) => x._id),
      [e._id],
    );
    const one = await s.request('GET', `/v1/events/${e._id}`, { key: sk() });
    assert.deepEqual(one.body.event.metadata, { sku: 'abc', revenue: 12.5 });
  });

  it("the mobile SDKs' form: type, the user's _id, a location of its own", async () => {
    const user = (await s.request('GET', '/v1/users/conv-dev-2', { key: sk() })).body.user;
    const at = offset(BROOKLYN, 0, 500);
    const res = await convert({
      id: user._id,
      type: 'settings_opened',
      metadata: { foo: 'bar' },
      latitude: at[1],
      longitude: at[0],
      accuracy: 8,
    });
    assertOk(res);
    assert.equal(res.body.event.type, 'settings_opened');
    assert.equal(res.body.event.user._id, user._id);
    assert.deepEqual(res.body.event.location.coordinates, at);
    assert.equal(res.body.event.locationAccuracy, 8);
  });

  it('delivers the conversion to the webhooks, with its user', async () => {
    await s.deps.services.deliveries.runOnce();
    const types = receiver.bodies.map((b) => b.event.type);
    assert.ok(types.includes('purchase'), JSON.stringify(types));
    assert.ok(types.includes('settings_opened'));
    assert.equal(receiver.bodies.find((b) => b.event.type === 'purchase')?.user.userId, 'conv-user-1');
  });

  it('counts per name and UTC day, revenue summed; a day is the UTC day of createdAt', async () => {
    assertOk(await convert({ name: 'purchase', deviceId: 'conv-dev-2', revenue: 7.5 }));
    clock.advance(2 * 3_600_000); // 2026-03-11T01:00Z: the next UTC day
    assertOk(await convert({ name: 'purchase', userId: 'conv-user-1', metadata: { revenue: '3' } }));
    const res = await summary('?from=2026-03-01&to=2026-03-31');
    assertOk(res);
    assert.equal(res.body.from, '2026-03-01');
    assert.equal(res.body.to, '2026-03-31');
    assert.deepEqual(res.body.conversions, [
      { name: 'purchase', day: '2026-03-10', count: 2, revenue: 20 },
      { name: 'settings_opened', day: '2026-03-10', count: 1, revenue: 0 },
      { name: 'purchase', day: '2026-03-11', count: 1, revenue: 3 },
    ]);
    const last30 = await summary('');
    assertOk(last30);
    assert.equal(last30.body.to, '2026-03-11');
    assert.equal(last30.body.from, '2026-02-10');
    assert.equal(last30.body.conversions.length, 3);
    const oneDay = await summary('?from=2026-03-11T00:00:00Z&to=2026-03-11T05:00:00Z');
    assert.deepEqual(
      oneDay.body.conversions.map((c: { day: string }) => c.day),
      ['2026-03-11'],
    );
  });

  it('the summary needs the secret key and sane ranges', async () => {
    assertError(await s.request('GET', '/v1/events/conversions', { key: pk() }), 403);
    assertError(await summary('?from=2026-03-10&to=2026-03-01'), 400, 'to');
    assertError(await summary('?from=2024-01-01&to=2026-03-01'), 400, 'from');
    assertError(await summary('?from=yesterday'), 400, 'from');
  });

  it('refuses bad input naming the parameter, and stores nothing then', async () => {
    const before = (await s.request('GET', '/v1/events?limit=1000', { key: sk() })).body.events.length;
    assertError(await convert({ userId: 'conv-user-1' }), 400, 'name');
    assertError(await convert({ name: 'user.entered_geofence', userId: 'conv-user-1' }), 400, 'name');
    assertError(await convert({ type: 'a,b', userId: 'conv-user-1' }), 400, 'type');
    assertError(await convert({ name: 'x'.repeat(101), userId: 'conv-user-1' }), 400, 'name');
    assertError(await convert({ name: 'purchase' }), 400, 'userId');
    assertError(await convert({ name: 'purchase', userId: 'conv-user-1', revenue: 'lots' }), 400, 'revenue');
    assertError(
      await convert({ name: 'purchase', userId: 'conv-user-1', metadata: { revenue: 'lots' } }),
      400,
      'metadata',
    );
    assertError(await convert({ name: 'purchase', userId: 'conv-user-1', createdAt: 'soon' }), 400, 'createdAt');
    assertError(await convert({ name: 'purchase', userId: 'conv-user-1', latitude: 40 }), 400, 'longitude');
    assertError(
      await convert({ name: 'purchase', userId: 'conv-user-1', latitude: 91, longitude: 0 }),
      400,
      'latitude',
    );
    assertError(await convert({ name: 'purchase', userId: 'nobody', deviceId: 'no-device' }), 404, 'userId');
    const after = (await s.request('GET', '/v1/events?limit=1000', { key: sk() })).body.events.length;
    assert.equal(after, before);
    const counts = await summary('?from=2026-03-01&to=2026-03-31');
    assert.equal(
      counts.body.conversions.reduce((n: number, c: { count: number }) => n + c.count, 0),
      4,
    );
  });

  it('finds the user by installId alone, for tracks and conversions that carry nothing else', async () => {
    const trackAs = (json: Record<string, unknown>) => {
      clock.advance(2000); // past the per-device limit of one track a second
      return s.request('POST', '/v1/track', { key: pk(), json });
    };
    // As iOS sends a track (no deviceId while the vendor id is withheld), less the fields that do not matter.
    const fix = { latitude: home[1], longitude: home[0], accuracy: 10, deviceType: 'iOS', foreground: true };
    const first = await trackAs({ ...fix, installId: 'install-A', deviceId: 'inst-dev-A' });
    assertOk(first);
    const alone = await trackAs({ ...fix, installId: 'install-A', source: 'GEOFENCE_EXIT' });
    assertOk(alone);
    assert.equal(alone.body.user.source, 'GEOFENCE_EXIT', 'the source the mobile SDKs read back');
    const read = await s.request('GET', `/v1/users/${alone.body.user._id}`, { key: sk() });
    assert.equal(read.body.user.source, 'GEOFENCE_EXIT');
    assert.equal(alone.body.user._id, first.body.user._id, 'the same user as the install tracked before');
    assert.equal(alone.body.user.deviceId, 'inst-dev-A');

    const fresh = await trackAs({ ...fix, installId: 'install-B' });
    assertOk(fresh);
    assert.notEqual(fresh.body.user._id, first.body.user._id);
    assert.equal(fresh.body.user.installId, 'install-B');
    const again = await trackAs({ ...fix, installId: 'install-B' });
    assert.equal(again.body.user._id, fresh.body.user._id, 'a first track by installId is found again by it');

    const res = await convert({ type: 'checkout', installId: 'install-A', metadata: { revenue: 3 } });
    assertOk(res);
    assert.equal(res.body.event.user._id, first.body.user._id);
    assert.equal(
      res.body.event.user.installId,
      'install-A',
      "the event's user carries installId, as RadarEvent reads it",
    );

    const before = (await s.request('GET', '/v1/events?limit=1000', { key: sk() })).body.events.length;
    assertError(await convert({ type: 'checkout', installId: 'install-unknown' }), 404, 'installId');
    // The installId stands in only when nothing else names the user: never for a userId never tracked.
    assertError(await convert({ type: 'checkout', userId: 'new-login', installId: 'install-A' }), 404, 'userId');
    assertError(await trackAs({ ...fix }), 400, 'deviceId');
    assertError(await trackAs({ ...fix, installId: 'install-A', source: 'x'.repeat(65) }), 400, 'source');
    const users = (await s.request('GET', '/v1/users?limit=1000', { key: sk() })).body.users;
    assert.equal(users.filter((u: { installId?: string }) => u.installId === 'install-unknown').length, 0);
    assert.equal((await s.request('GET', '/v1/events?limit=1000', { key: sk() })).body.events.length, before);
  });
});

describe('event verification: PUT /v1/events/:id/verification', () => {
  let s: TestServer;
  let eventId: string;
  const verify = (id: string, json: Record<string, unknown>) =>
    s.request('PUT', `/v1/events/${id}/verification`, { key: s.keys.test.publishable, json });
  const read = async (id: string) =>
    (await s.request('GET', `/v1/events/${id}`, { key: s.keys.test.secret })).body.event;

  before(async () => {
    s = await startServer();
    const center = offset(BROOKLYN, -3000, 0);
    await s.request('PUT', '/v1/geofences/verify/one', {
      key: s.keys.test.secret,
      json: { description: 'one', type: 'circle', coordinates: center, radius: 100 },
    });
    const res = await track(s, trackBody('verify-dev', center));
    eventId = res.body.events[0]._id;
    assert.equal(res.body.events[0].verification, undefined, 'no verdict until the app gives one');
  });
  after(() => s.close());

  it('accept (1), reject (-1), unverify (0): stored and shown in the event', async () => {
    const accepted = await verify(eventId, { verification: 1, verifiedPlaceId: 'place-1' });
    assertOk(accepted);
    assert.equal(accepted.body.event.verification, 1);
    assert.equal((await read(eventId)).verification, 1);
    assert.equal((await read(eventId)).verifiedPlaceId, 'place-1');
    assertOk(await verify(eventId, { verification: -1 }));
    const rejected = await read(eventId);
    assert.equal(rejected.verification, -1);
    assert.equal(rejected.verifiedPlaceId, undefined);
    assert.equal(rejected.type, 'user.entered_geofence', 'the rest of the event is kept');
    assertOk(await verify(eventId, { verification: '0' }));
    assert.equal((await read(eventId)).verification, 0);
    assertOk(await verify(eventId, { verification: 'accept' }));
    assert.equal((await read(eventId)).verification, 1);
    const listed = await s.request('GET', '/v1/events', { key: s.keys.test.secret });
    assert.equal(listed.body.events[0].verification, 1);
  });

  it('bad values answer 400 naming verification, unknown events 404, and nothing changes', async () => {
    assertError(await verify(eventId, { verification: 2 }), 400, 'verification');
    assertError(await verify(eventId, {}), 400, 'verification');
    assertError(await verify(eventId, { verification: 'maybe' }), 400, 'verification');
    assertError(await verify('0123456789abcdef01234567', { verification: 1 }), 404);
    assert.equal((await read(eventId)).verification, 1);
  });
});
