import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

describe('per-device track limits', () => {
  let s: TestServer;
  const clock = new ManualClock();
  before(async () => {
    // A per-key limit of 2/s: track must not be subject to it.
    s = await startServer({ clock, requestsPerSecond: 2 });
  });
  after(() => s.close());

  it('allows 1 per second per device, answering 429 with headers and no state change', async () => {
    const center = offset(BROOKLYN, 0, 3000);
    await putCircle(s, 'limits', 'a', center, 100);
    const first = await track(s, trackBody('dev-1s', BROOKLYN));
    assertOk(first);
    assert.equal(first.headers.get('ratelimit-limit'), '1');
    assert.equal(first.headers.get('ratelimit-remaining'), '0');
    assert.ok(first.headers.get('ratelimit-reset'));

    clock.advance(500);
    const refused = await track(s, trackBody('dev-1s', center));
    assertError(refused, 429);
    assert.match(refused.body.meta.message, /1 track per second per device/);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('ratelimit-limit'), '1');

    // No state change: the user did not move and no event was stored.
    clock.advance(500);
    const user = await s.request('GET', '/v1/users/dev-1s', { key: s.keys.test.secret });
    assert.deepEqual(user.body.user.location.coordinates, BROOKLYN);
    const events = await s.request('GET', `/v1/events?userId=${first.body.user._id}`, { key: s.keys.test.secret });
    assert.equal(events.body.events.length, 0);

    const again = await track(s, trackBody('dev-1s', center));
    assertOk(again);
    assert.deepEqual(
      again.body.events.map((e: { type: string }) => e.type),
      ['user.entered_geofence'],
    );
  });

  it('limits each device on its own, and ignores the per-key limit', async () => {
    for (let i = 0; i < 5; i++) assertOk(await track(s, trackBody(`dev-many-${i}`, BROOKLYN)));
  });

  it('keys the limit by environment as well as device', async () => {
    assertOk(await track(s, trackBody('dev-env', BROOKLYN)));
    assertOk(await track(s, trackBody('dev-env', BROOKLYN), s.keys.live.publishable));
    assertError(await track(s, trackBody('dev-env', BROOKLYN)), 429);
  });

  it('allows 180 per hour per device', async () => {
    for (let i = 0; i < 180; i++) {
      assertOk(await track(s, trackBody('dev-hour', BROOKLYN)));
      clock.advance(1000);
    }
    const refused = await track(s, trackBody('dev-hour', BROOKLYN));
    assertError(refused, 429);
    assert.match(refused.body.meta.message, /180 tracks per hour per device/);
    assert.equal(refused.headers.get('ratelimit-limit'), '180');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 3000 && retryAfter <= 3600, `retry-after ${retryAfter}`);
    clock.advance(retryAfter * 1000);
    assertOk(await track(s, trackBody('dev-hour', BROOKLYN)));
  });

  it('allows 1,000 per day per device', async () => {
    // 20.1 s apart stays under 180 per hour, so the daily limit is the one that refuses.
    for (let i = 0; i < 1000; i++) {
      const res = await track(s, trackBody('dev-day', BROOKLYN));
      assert.equal(res.status, 200, `track ${i}: ${JSON.stringify(res.body)}`);
      clock.advance(20_100);
    }
    const refused = await track(s, trackBody('dev-day', BROOKLYN));
    assertError(refused, 429);
    assert.match(refused.body.meta.message, /1,000 tracks per day per device/);
    assert.equal(refused.headers.get('ratelimit-limit'), '1000');
    assert.ok(Number(refused.headers.get('retry-after')) > 3600);
  });

  it('counts a replay once, whatever its length', async () => {
    const t0 = clock.now();
    const replays = Array.from({ length: 10 }, (_, i) =>
      trackBody('dev-replay-limit', BROOKLYN, { updatedAt: new Date(t0 - (10 - i) * 60_000).toISOString() }),
    );
    assertOk(await s.request('POST', '/v1/track/replay', { key: s.keys.test.publishable, json: { replays } }));
    assertError(await s.request('POST', '/v1/track/replay', { key: s.keys.test.publishable, json: { replays } }), 429);
    assertError(await track(s, trackBody('dev-replay-limit', BROOKLYN)), 429);
    clock.advance(1000);
    assertOk(await track(s, trackBody('dev-replay-limit', BROOKLYN)));
  });

  it('other endpoints keep the per-key limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await s.request('GET', '/v1/users', { key: s.keys.test.secret })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});
