import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadRadarJs } from './helpers/radar-sdk-js.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, deviceIds, offset, putCircle, track, trackBody } from './helpers/tracking.js';

/** What iOS sends when its tracking options have syncGeofences on (RadarAPIClient.m): no limit. */
const iosBody = (deviceId: string, userId: string, at = BROOKLYN) =>
  trackBody(deviceId, at, {
    userId,
    deviceType: 'iOS',
    source: 'BACKGROUND_LOCATION',
    foreground: false,
    stopped: true,
    nearbyGeofences: true,
    trackingOptions: { desiredStoppedUpdateInterval: 0, syncGeofences: true },
    usingRemoteTrackingOptions: false,
  });

/** Android adds `nearbyGeofencesLimit` (its options' syncGeofencesLimit; 0 in the continuous preset). */
const androidBody = (deviceId: string, userId: string, limit: unknown) => ({
  ...iosBody(deviceId, userId),
  deviceType: 'Android',
  nearbyGeofencesLimit: limit,
});

interface WireFence {
  _id: string;
  tag: string;
  externalId: string;
  enabled: boolean;
  type: string;
  geometryCenter: { type: string; coordinates: number[] };
  geometryRadius: number;
  geometry?: { type: string };
}

describe('nearby geofences for the mobile SDKs (geofence sync)', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.now());
  const nextDevice = deviceIds(clock, 'nearby-device');

  before(async () => {
    s = await startServer({ clock });
    // 12 open fences 100 m apart going north, the nearest first; a user's own and another's restricted
    // fence; a disabled and an expired one right at the point; one 300 km away.
    for (let i = 0; i < 12; i++) await putCircle(s, 'store', `n${i}`, offset(BROOKLYN, 0, 150 + i * 100), 50);
    await putCircle(s, 'private', 'mine', offset(BROOKLYN, 0, 120), 50, { userId: 'me' });
    await putCircle(s, 'private', 'theirs', offset(BROOKLYN, 0, 10), 50, { userId: 'someone-else' });
    await putCircle(s, 'store', 'off', BROOKLYN, 50, { enabled: false });
    await putCircle(s, 'store', 'expired', BROOKLYN, 50, {
      disableAfter: new Date(clock.now() + 1000).toISOString(),
    });
    await putCircle(s, 'store', 'far', offset(BROOKLYN, 0, 300_000), 50);
    const poly = await s.request('PUT', '/v1/geofences/zone/poly', {
      key: s.keys.test.secret,
      json: {
        description: 'a block',
        type: 'polygon',
        coordinates: [
          [
            offset(BROOKLYN, 30, 30),
            offset(BROOKLYN, 80, 30),
            offset(BROOKLYN, 80, 80),
            offset(BROOKLYN, 30, 80),
            offset(BROOKLYN, 30, 30),
          ],
        ],
      },
    });
    assert.equal(poly.status, 200);
    clock.advance(5000); // past the expired fence's disableAfter
  });
  after(() => s.close());

  it('iOS: the nearest 10 fences the user may enter, nearest first, with what the OS registers', async () => {
    const res = await track(s, iosBody(nextDevice(), 'me'));
    assert.equal(res.status, 200);
    const fences = res.body.nearbyGeofences as WireFence[];
    assert.equal(fences.length, 10, 'the default limit when the SDK sends none');
    assert.deepEqual(
      fences.map((f) => f.externalId),
      ['poly', 'mine', 'n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'],
    );
    for (const f of fences) {
      assert.match(f._id, /^[0-9a-f]{24}$/);
      assert.equal(f.enabled, true);
      assert.equal(f.geometryCenter.type, 'Point');
      assert.equal(f.geometryCenter.coordinates.length, 2);
      assert.ok(f.geometryRadius > 0);
    }
    const poly = fences[0]!;
    assert.equal(poly.type, 'polygon');
    assert.equal(poly.geometry?.type, 'Polygon', 'polygons carry their outline');
    // The track itself is answered as before.
    assert.equal(res.body.meta.code, 200);
    assert.ok(Array.isArray(res.body.events));
    assert.equal(res.body.user.userId, 'me');
  });

  it('never lists a fence restricted to another user, a disabled or an expired one', async () => {
    const res = await track(s, androidBody(nextDevice(), 'someone', 100));
    const ids = (res.body.nearbyGeofences as WireFence[]).map((f) => f.externalId);
    assert.ok(!ids.includes('theirs') && !ids.includes('mine'), 'restricted fences of other users');
    assert.ok(!ids.includes('off') && !ids.includes('expired'));
    assert.ok(!ids.includes('far'), 'beyond the sync radius');
    assert.deepEqual(ids.sort(), ['poly', ...Array.from({ length: 12 }, (_, i) => `n${i}`)].sort());
    const own = await track(s, androidBody(nextDevice(), 'someone-else', 3));
    assert.deepEqual(
      (own.body.nearbyGeofences as WireFence[]).map((f) => f.externalId),
      ['theirs', 'poly', 'n0'],
      "the user's own restricted fence is theirs to enter",
    );
  });

  it('Android: nearbyGeofencesLimit caps the list; 0 (the continuous preset) means the default', async () => {
    const three = await track(s, androidBody(nextDevice(), 'me', 3));
    assert.equal(three.body.nearbyGeofences.length, 3);
    const zero = await track(s, androidBody(nextDevice(), 'me', 0));
    assert.equal(zero.body.nearbyGeofences.length, 10);
    const asText = await track(s, androidBody(nextDevice(), 'me', '2'));
    assert.equal(asText.body.nearbyGeofences.length, 2);
  });

  it('a track without nearbyGeofences answers none', async () => {
    const res = await track(s, trackBody(nextDevice(), BROOKLYN, { userId: 'me' }));
    assert.equal(res.status, 200);
    assert.equal('nearbyGeofences' in res.body, false);
  });

  it('a bad limit is refused naming it, and the track changes nothing', async () => {
    const deviceId = nextDevice();
    for (const bad of [101, -1, 2.5, 'ten']) {
      const res = await track(s, androidBody(deviceId, 'refused-user', bad));
      assert.equal(res.status, 400, String(bad));
      assert.equal(res.body.meta.param, 'nearbyGeofencesLimit');
      assert.match(res.body.meta.message, /^nearbyGeofencesLimit /);
    }
    const users = await s.request('GET', '/v1/users?limit=100', { key: s.keys.test.secret });
    assert.ok(!(users.body.users as Array<{ userId: string }>).some((u) => u.userId === 'refused-user'));
    // Refused requests cost no device rate limit: the same device tracks at once.
    const ok = await track(s, androidBody(deviceId, 'refused-user', 1));
    assert.equal(ok.status, 200);
    assert.equal(ok.body.nearbyGeofences.length, 1);
  });

  it('published radar-sdk-js: trackOnce passes nearbyGeofences through and gets the fences', async () => {
    const Radar = await loadRadarJs(s.url, s.keys.test.publishable, BROOKLYN);
    Radar.setUserId('me');
    clock.advance(2000);
    const res = await Radar.trackOnce({
      latitude: BROOKLYN[1],
      longitude: BROOKLYN[0],
      accuracy: 10,
      nearbyGeofences: true,
      nearbyGeofencesLimit: 4,
    });
    assert.match(res.user._id, /^[0-9a-f]{24}$/);
    assert.deepEqual(
      (res.response.nearbyGeofences as WireFence[]).map((f) => f.externalId),
      ['poly', 'mine', 'n0', 'n1'],
    );
  });
});
