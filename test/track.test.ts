import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

describe('POST /v1/track', () => {
  const clock = new ManualClock();
  const srv = serverSuite({ clock });

  it('creates a user on first sight and answers {meta, events, user} with every user field', async () => {
    const res = await track(
      srv.s,
      trackBody('dev-create', BROOKLYN, {
        userId: 'user-create',
        foreground: true,
        stopped: true,
        description: 'Jane',
        metadata: { plan: 'gold', visits: 3, beta: true },
        deviceType: 'iOS',
        installId: 'install-1',
      }),
    );
    assertOk(res);
    assert.deepEqual(res.body.events, []);
    const u = res.body.user;
    assert.match(u._id, /^[0-9a-f]{24}$/);
    assert.equal(u.userId, 'user-create');
    assert.equal(u.deviceId, 'dev-create');
    assert.deepEqual(u.location, { type: 'Point', coordinates: BROOKLYN });
    assert.equal(u.locationAccuracy, 10);
    assert.equal(u.foreground, true);
    assert.equal(u.stopped, true);
    assert.equal(u.deviceType, 'iOS');
    assert.equal(u.description, 'Jane');
    assert.equal(u.live, false);
    assert.deepEqual(u.metadata, { plan: 'gold', visits: 3, beta: true });
    assert.deepEqual(u.geofences, []);
    assertIsoMs(u.createdAt, 'createdAt');
    assertIsoMs(u.updatedAt, 'updatedAt');
    assert.equal(u.updatedAt, new Date(clock.now()).toISOString());
    const stored = await srv.s.request('GET', `/v1/users/${u._id}`, { key: srv.s.keys.test.secret });
    assertOk(stored);
    assert.deepEqual(stored.body.user.location, u.location);
  });

  it('accepts the body radar-sdk-js 5.2.0 sends: nulls, tripOptions null, extra fields', async () => {
    const res = await track(srv.s, {
      latitude: 40.7039,
      longitude: -73.9867,
      accuracy: 12,
      locationAuthorization: 'GRANTED_FOREGROUND',
      description: null,
      deviceId: 'dev-websdk',
      deviceType: 'Web',
      foreground: true,
      installId: '9ecd0c3e-3c8e-4b53-9d3a-0a4f6c0fb3e2',
      sessionId: '1795300844',
      metadata: null,
      sdkVersion: '5.2.0',
      stopped: true,
      userId: null,
      tripOptions: null,
      source: 'FOREGROUND_LOCATION',
      speed: 1.5,
      course: 90,
      altitude: 12.5,
      desiredAccuracy: 'high',
    });
    assertOk(res);
    assert.equal(res.body.user.deviceId, 'dev-websdk');
    assert.equal(res.body.user.userId, undefined);
    assert.equal(res.body.user.deviceType, 'Web');
  });

  it('reads numbers and booleans sent as strings, and form bodies with JSON metadata', async () => {
    const res = await srv.s.request('POST', '/v1/track', {
      key: srv.s.keys.test.publishable,
      form: {
        deviceId: 'dev-form',
        latitude: '40.7039',
        longitude: '-73.9867',
        accuracy: '65',
        foreground: 'false',
        stopped: '1',
        metadata: '{"tier":"silver","n":2}',
        deviceType: 'android',
      },
    });
    assertOk(res);
    const u = res.body.user;
    assert.deepEqual(u.location.coordinates, BROOKLYN);
    assert.equal(u.locationAccuracy, 65);
    assert.equal(u.foreground, false);
    assert.equal(u.stopped, true);
    assert.equal(u.deviceType, 'Android');
    assert.deepEqual(u.metadata, { tier: 'silver', n: 2 });
  });

  it('takes deviceType from X-Radar-Device-Type when the body has none', async () => {
    const res = await srv.s.request('POST', '/v1/track', {
      key: srv.s.keys.test.publishable,
      json: trackBody('dev-header', BROOKLYN),
      headers: { 'x-radar-device-type': 'Web' },
    });
    assertOk(res);
    assert.equal(res.body.user.deviceType, 'Web');
  });

  describe('rejects each invalid parameter with its name', () => {
    const base = trackBody('dev-bad', BROOKLYN);
    const without = (k: string) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== k));
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['deviceId missing', without('deviceId'), 'deviceId'],
      ['deviceId null', { ...base, deviceId: null }, 'deviceId'],
      ['deviceId an object', { ...base, deviceId: { a: 1 } }, 'deviceId'],
      ['latitude missing', without('latitude'), 'latitude'],
      ['latitude above 90', { ...base, latitude: 90.5 }, 'latitude'],
      ['latitude below -90', { ...base, latitude: -91 }, 'latitude'],
      ['latitude not a number', { ...base, latitude: 'north' }, 'latitude'],
      ['longitude missing', without('longitude'), 'longitude'],
      ['longitude above 180', { ...base, longitude: 180.01 }, 'longitude'],
      ['longitude below -180', { ...base, longitude: -200 }, 'longitude'],
      ['accuracy missing', without('accuracy'), 'accuracy'],
      ['accuracy 0', { ...base, accuracy: 0 }, 'accuracy'],
      ['accuracy negative', { ...base, accuracy: -5 }, 'accuracy'],
      ['accuracy not a number', { ...base, accuracy: 'good' }, 'accuracy'],
      ['metadata with 17 keys', { ...base, metadata: tooMany }, 'metadata'],
      ['metadata with an object value', { ...base, metadata: { nested: { a: 1 } } }, 'metadata'],
      ['metadata an array', { ...base, metadata: [1, 2] }, 'metadata'],
      ['deviceType not iOS, Android or Web', { ...base, deviceType: 'Windows' }, 'deviceType'],
      ['updatedAt not a datetime', { ...base, updatedAt: 'yesterday' }, 'updatedAt'],
      ['foreground not a boolean', { ...base, foreground: 'maybe' }, 'foreground'],
      ['stopped not a boolean', { ...base, stopped: 'sometimes' }, 'stopped'],
      ['replayed not a boolean', { ...base, replayed: 'perhaps' }, 'replayed'],
      ['userId too long', { ...base, userId: 'u'.repeat(300) }, 'userId'],
      ['description too long', { ...base, description: 'd'.repeat(1001) }, 'description'],
    ];
    for (const [name, body, param] of cases) {
      it(name, async () => {
        assertError(await track(srv.s, body), 400, param);
      });
    }
    it('a body that is not JSON', async () => {
      assertError(
        await srv.s.request('POST', '/v1/track', { key: srv.s.keys.test.publishable, json: '{"deviceId":' }),
        400,
        'body',
      );
    });
    it('a request without a key', async () => {
      assertError(await srv.s.request('POST', '/v1/track', { json: base }), 401, 'Authorization');
    });
  });

  it('a rejected body changes nothing', async () => {
    assertError(await track(srv.s, trackBody('dev-rejected', BROOKLYN, { accuracy: 0 })), 400, 'accuracy');
    assertError(await srv.s.request('GET', '/v1/users/dev-rejected', { key: srv.s.keys.test.secret }), 404, 'id');
  });

  describe('identity', () => {
    it('finds the user by deviceId, and a first userId attaches to that user', async () => {
      const first = await track(srv.s, trackBody('dev-id-1', BROOKLYN));
      clock.advance(1000);
      const second = await track(srv.s, trackBody('dev-id-1', BROOKLYN, { userId: 'user-id-1' }));
      assert.equal(second.body.user._id, first.body.user._id);
      assert.equal(second.body.user.userId, 'user-id-1');
      clock.advance(1000);
      // Without a userId, the device still leads to its (now logged-in) user.
      const third = await track(srv.s, trackBody('dev-id-1', BROOKLYN));
      assert.equal(third.body.user._id, first.body.user._id);
      assert.equal(third.body.user.userId, 'user-id-1');
    });

    it('finds the user by userId from another device, which becomes its device', async () => {
      const phone = await track(srv.s, trackBody('dev-phone', BROOKLYN, { userId: 'user-two-devices' }));
      const tablet = await track(srv.s, trackBody('dev-tablet', BROOKLYN, { userId: 'user-two-devices' }));
      assert.equal(tablet.body.user._id, phone.body.user._id);
      assert.equal(tablet.body.user.deviceId, 'dev-tablet');
      const list = await srv.s.request('GET', '/v1/users/user-two-devices', { key: srv.s.keys.test.secret });
      assert.equal(list.body.user.deviceId, 'dev-tablet');
    });

    it('a different userId on a device creates a new user', async () => {
      const alice = await track(srv.s, trackBody('dev-shared', BROOKLYN, { userId: 'alice' }));
      clock.advance(1000);
      const bob = await track(srv.s, trackBody('dev-shared', BROOKLYN, { userId: 'bob' }));
      assert.notEqual(bob.body.user._id, alice.body.user._id);
      assert.equal(bob.body.user.userId, 'bob');
      const a = await srv.s.request('GET', '/v1/users/alice', { key: srv.s.keys.test.secret });
      assert.equal(a.body.user._id, alice.body.user._id);
    });

    it('keeps description and metadata when a later update sends null, and replaces them when sent', async () => {
      await track(srv.s, trackBody('dev-keep', BROOKLYN, { description: 'kept', metadata: { a: 1 } }));
      clock.advance(1000);
      const kept = await track(srv.s, trackBody('dev-keep', BROOKLYN, { description: null, metadata: null }));
      assert.equal(kept.body.user.description, 'kept');
      assert.deepEqual(kept.body.user.metadata, { a: 1 });
      clock.advance(1000);
      const replaced = await track(srv.s, trackBody('dev-keep', BROOKLYN, { metadata: { b: 'two' } }));
      assert.deepEqual(replaced.body.user.metadata, { b: 'two' });
    });
  });

  describe('updatedAt', () => {
    it('uses the client time when in chronological order', async () => {
      const t1 = new Date(clock.now() - 600_000).toISOString();
      const a = await track(srv.s, trackBody('dev-time', BROOKLYN, { updatedAt: t1 }));
      assert.equal(a.body.user.updatedAt, t1);
      clock.advance(1000);
      const t2 = new Date(clock.now() - 300_000).toISOString();
      const b = await track(srv.s, trackBody('dev-time', BROOKLYN, { updatedAt: t2 }));
      assert.equal(b.body.user.updatedAt, t2);
    });

    it('falls back to server time when out of order, equal, or in the future', async () => {
      const t1 = new Date(clock.now() - 60_000).toISOString();
      await track(srv.s, trackBody('dev-order', BROOKLYN, { updatedAt: t1 }));
      clock.advance(1000);
      const older = await track(
        srv.s,
        trackBody('dev-order', BROOKLYN, { updatedAt: new Date(clock.now() - 120_000).toISOString() }),
      );
      assert.equal(older.body.user.updatedAt, new Date(clock.now()).toISOString());
      clock.advance(1000);
      const same = await track(srv.s, trackBody('dev-order', BROOKLYN, { updatedAt: older.body.user.updatedAt }));
      assert.equal(same.body.user.updatedAt, new Date(clock.now()).toISOString());
      clock.advance(1000);
      const future = await track(
        srv.s,
        trackBody('dev-order', BROOKLYN, { updatedAt: new Date(clock.now() + 3_600_000).toISOString() }),
      );
      assert.equal(future.body.user.updatedAt, new Date(clock.now()).toISOString());
    });

    it('accepts iOS offsets without a colon and plain dates', async () => {
      const res = await track(
        srv.s,
        trackBody('dev-ios-time', BROOKLYN, { updatedAt: '2026-01-05T11:00:00.123+0000' }),
      );
      assert.equal(res.body.user.updatedAt, '2026-01-05T11:00:00.123Z');
      clock.advance(1000);
      const later = await track(srv.s, trackBody('dev-ios-time', BROOKLYN, { updatedAt: '2026-01-05' }));
      // Midnight is before the last update, so server time applies.
      assert.equal(later.body.user.updatedAt, new Date(clock.now()).toISOString());
    });

    it('dates a mobile fix by updatedAtMsDiff when updatedAt is absent', async () => {
      const res = await track(srv.s, trackBody('dev-msdiff', BROOKLYN, { updatedAtMsDiff: 5000 }));
      assert.equal(res.body.user.updatedAt, new Date(clock.now() - 5000).toISOString());
    });
  });

  it('lists the fences the user is in as geofence objects without geometry', async () => {
    const center = offset(BROOKLYN, 5000, 0);
    const id = await putCircle(srv.s, 'track-fences', 'one', center, 200, { metadata: { floor: 2 } });
    const res = await track(srv.s, trackBody('dev-fences', center));
    assert.equal(res.body.user.geofences.length, 1);
    const g = res.body.user.geofences[0];
    assert.equal(g._id, id);
    assert.equal(g.tag, 'track-fences');
    assert.equal(g.externalId, 'one');
    assert.equal(g.geometry, undefined);
    assert.deepEqual(g.geometryCenter, { type: 'Point', coordinates: center });
    assert.deepEqual(g.metadata, { floor: 2 });
  });

  it('keeps test and live data apart', async () => {
    const live = await track(srv.s, trackBody('dev-live', BROOKLYN), srv.s.keys.live.publishable);
    assertOk(live);
    assert.equal(live.body.user.live, true);
    assertError(await srv.s.request('GET', '/v1/users/dev-live', { key: srv.s.keys.test.secret }), 404, 'id');
    const seen = await srv.s.request('GET', '/v1/users/dev-live', { key: srv.s.keys.live.secret });
    assert.equal(seen.body.user._id, live.body.user._id);
    // The same deviceId under the test key is another user.
    const test = await track(srv.s, trackBody('dev-live', BROOKLYN));
    assert.notEqual(test.body.user._id, live.body.user._id);
    assert.equal(test.body.user.live, false);
  });

  it('accepts a secret key too (secret keys may call publishable endpoints)', async () => {
    assertOk(await track(srv.s, trackBody('dev-secret', BROOKLYN), srv.s.keys.test.secret));
  });
});
