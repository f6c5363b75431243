import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, trackBody, typesOf } from './helpers/tracking.js';

const MINUTE = 60_000;

describe('POST /v1/track/replay', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const replay = (replays: unknown, key = s.keys.test.publishable) =>
    s.request('POST', '/v1/track/replay', { key, json: { replays } });
  const minutesAgo = (m: number) => new Date(clock.now() - m * MINUTE).toISOString();
  const c = offset(BROOKLYN, -4000, 4000);
  let fence: string;

  before(async () => {
    s = await startServer({ clock });
    fence = await putCircle(s, 'replay', 'a', c, 100, { dwellThreshold: 5 });
  });
  after(() => s.close());

  it('applies buffered updates in turn: events as if each had arrived, flagged replayed', async () => {
    const res = await replay([
      trackBody('dev-replay', offset(c, 1000, 0), { updatedAt: minutesAgo(30), userId: 'user-replay' }),
      trackBody('dev-replay', c, { updatedAt: minutesAgo(25), userId: 'user-replay' }),
      trackBody('dev-replay', c, { updatedAt: minutesAgo(18), userId: 'user-replay' }),
      trackBody('dev-replay', offset(c, 1000, 0), { updatedAt: minutesAgo(10), userId: 'user-replay' }),
      trackBody('dev-replay', c, { updatedAt: minutesAgo(2), userId: 'user-replay' }),
    ]);
    assertOk(res);
    assert.deepEqual(typesOf(res), [
      'user.entered_geofence',
      'user.dwelled_in_geofence',
      'user.exited_geofence',
      'user.entered_geofence',
    ]);
    const [entered, dwelled, exited, again] = res.body.events;
    assert.equal(entered.createdAt, minutesAgo(25));
    assert.equal(dwelled.createdAt, minutesAgo(18));
    assert.equal(dwelled.duration, 7);
    assert.equal(exited.createdAt, minutesAgo(10));
    assert.equal(exited.duration, 15);
    assert.equal(again.createdAt, minutesAgo(2));
    for (const e of res.body.events) {
      assert.equal(e.replayed, true);
      assert.equal(e.geofence._id, fence);
      assert.equal(e.actualCreatedAt, new Date(clock.now()).toISOString());
    }
    // The user is as after the last update.
    assert.deepEqual(res.body.user.location.coordinates, c);
    assert.equal(res.body.user.updatedAt, minutesAgo(2));
    assert.equal(res.body.user.userId, 'user-replay');
    assert.equal(res.body.user.geofences.length, 1);
    assertIsoMs(res.body.user.createdAt, 'createdAt');
    // Stored like any other events.
    const stored = await s.request('GET', '/v1/events?userId=user-replay', { key: s.keys.test.secret });
    assert.equal(stored.body.events.length, 4);
    assert.ok(stored.body.events.every((e: { replayed: boolean }) => e.replayed));
  });

  it('dates an update that is out of order by server time, as track does', async () => {
    clock.advance(MINUTE);
    const res = await replay([
      trackBody('dev-replay-order', c, { updatedAt: minutesAgo(5) }),
      trackBody('dev-replay-order', offset(c, 1000, 0), { updatedAt: minutesAgo(10) }),
    ]);
    assertOk(res);
    assert.deepEqual(typesOf(res), ['user.entered_geofence', 'user.exited_geofence']);
    assert.equal(res.body.events[1].createdAt, new Date(clock.now()).toISOString());
    assert.equal(res.body.user.updatedAt, new Date(clock.now()).toISOString());
  });

  it('marks a plain track sent with replayed: true', async () => {
    clock.advance(MINUTE);
    const res = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-replayed-flag', c, { replayed: true }),
    });
    assert.equal(res.body.events[0].replayed, true);
  });

  it('accepts replays as a JSON string in a form body', async () => {
    clock.advance(MINUTE);
    const res = await s.request('POST', '/v1/track/replay', {
      key: s.keys.test.publishable,
      form: { replays: JSON.stringify([trackBody('dev-replay-form', c, { accuracy: '15' })]) },
    });
    assertOk(res);
    assert.deepEqual(typesOf(res), ['user.entered_geofence']);
    assert.equal(res.body.user.locationAccuracy, 15);
  });

  describe('rejects', () => {
    it('replays missing, empty, or not an array', async () => {
      assertError(
        await s.request('POST', '/v1/track/replay', { key: s.keys.test.publishable, json: {} }),
        400,
        'replays',
      );
      assertError(await replay([]), 400, 'replays');
      assertError(await replay({ deviceId: 'x' }), 400, 'replays');
      assertError(await replay('not json'), 400, 'replays');
    });
    it('more than 1000 updates', async () => {
      assertError(await replay(Array.from({ length: 1001 }, () => trackBody('dev-too-many', c))), 400, 'replays');
    });
    it('an invalid update, naming it and its parameter, and applies none', async () => {
      clock.advance(MINUTE);
      const res = await replay([trackBody('dev-replay-bad', c), trackBody('dev-replay-bad', c, { latitude: 100 })]);
      assertError(res, 400, 'replays[1].latitude');
      assertError(await replay([trackBody('dev-replay-bad', c), 'x']), 400, 'replays[1]');
      assertError(await replay([{ latitude: 1, longitude: 1, accuracy: 5 }]), 400, 'replays[0].deviceId');
      assertError(await s.request('GET', '/v1/users/dev-replay-bad', { key: s.keys.test.secret }), 404, 'id');
    });
    it('no key', async () =>
      assertError(await s.request('POST', '/v1/track/replay', { json: { replays: [] } }), 401, 'Authorization'));
  });
});
