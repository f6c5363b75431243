import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, trackBody, typesOf } from './helpers/tracking.js';

const MINUTE = 60_000;

describe('Beacons: track events and nearby search', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const UUID_A = randomUUID();
  const UUID_B = randomUUID();
  const ids: Record<string, string> = {};

  const putBeacon = async (externalId: string, uuid: string, minor: number, at: LonLat, enabled = true) => {
    const res = await s.request('PUT', `/v1/beacons/store/${externalId}`, {
      key: s.keys.test.secret,
      json: {
        description: `Beacon ${externalId}`,
        type: 'ibeacon',
        uuid,
        major: '100',
        minor: String(minor),
        coordinates: at,
        enabled,
      },
    });
    assertOk(res);
    ids[externalId] = res.body.beacon._id;
  };
  const trackAt = (body: Record<string, unknown>, form = false) => {
    clock.advance(2000);
    if (!form) return s.request('POST', '/v1/track', { key: s.keys.test.publishable, json: body });
    const f = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
    );
    return s.request('POST', '/v1/track', { key: s.keys.test.publishable, form: f });
  };
  const search = (query: string, key = s.keys.test.publishable) =>
    s.request('GET', `/v1/search/beacons?${query}`, { key });

  before(async () => {
    s = await startServer({ clock });
    await putBeacon('front', UUID_A, 1, offset(BROOKLYN, 10, 0));
    await putBeacon('back', UUID_A, 2, offset(BROOKLYN, 300, 0));
    await putBeacon('far', UUID_B, 1, offset(BROOKLYN, 2000, 0));
    await putBeacon('off', UUID_B, 9, offset(BROOKLYN, 20, 0), false);
  });
  after(() => s.close());

  it('enters a ranged beacon, keeps it while ranged or silent, and exits it with a duration', async () => {
    const device = 'dev-beacon-1';
    const entered = await trackAt(
      trackBody(device, BROOKLYN, { beacons: [{ uuid: UUID_A.toUpperCase(), major: 100, minor: '1', rssi: -60 }] }),
    );
    assertOk(entered);
    assert.deepEqual(typesOf(entered), ['user.entered_beacon']);
    const event = entered.body.events[0];
    assert.equal(event.beacon._id, ids.front);
    assert.equal(event.beacon.description, 'Beacon front');
    assert.equal(event.confidence, 3);
    assert.deepEqual(
      entered.body.user.beacons.map((b: { _id: string }) => b._id),
      [ids.front],
    );

    // Still in range, and a track that ranged nothing (no `beacons`): no change.
    assert.deepEqual(
      typesOf(
        await trackAt(
          trackBody(device, BROOKLYN, { beacons: [{ uuid: UUID_A, major: '100', minor: '1', distance: 12 }] }),
        ),
      ),
      [],
    );
    const silent = await trackAt(trackBody(device, BROOKLYN));
    assert.deepEqual(typesOf(silent), []);
    assert.equal(silent.body.user.beacons[0]._id, ids.front);

    clock.advance(5 * MINUTE);
    const exited = await trackAt(trackBody(device, BROOKLYN, { beacons: [] }));
    assert.deepEqual(typesOf(exited), ['user.exited_beacon']);
    assert.equal(exited.body.events[0].beacon._id, ids.front);
    assert.ok(exited.body.events[0].duration >= 5 && exited.body.events[0].duration < 5.2);
    assert.deepEqual(exited.body.user.beacons, []);
  });

  it('accepts beacons form-encoded as JSON text, and unknown or disabled beacons produce no events', async () => {
    const device = 'dev-beacon-2';
    const res = await trackAt(
      trackBody(device, BROOKLYN, {
        beacons: [
          { uuid: UUID_A, major: '100', minor: '2', distance: 30 },
          { uuid: UUID_B, major: '100', minor: '9' },
          { uuid: randomUUID(), major: '1', minor: '1' },
        ],
      }),
      true,
    );
    assertOk(res);
    assert.deepEqual(typesOf(res), ['user.entered_beacon']);
    assert.equal(res.body.events[0].beacon._id, ids.back);
    assert.equal(res.body.events[0].confidence, 1);
    // The beacon is disabled while the user is in range: leaving it makes no event either.
    await putBeacon('back', UUID_A, 2, offset(BROOKLYN, 300, 0), false);
    const left = await trackAt(trackBody(device, BROOKLYN, { beacons: [] }));
    assert.deepEqual(typesOf(left), []);
    await putBeacon('back', UUID_A, 2, offset(BROOKLYN, 300, 0), true);
  });

  it('rejects bad beacons, naming the parameter and the item', async () => {
    const bad = (beacons: unknown) => trackAt(trackBody('dev-beacon-bad', BROOKLYN, { beacons }));
    const item = (x: Record<string, unknown>) => [{ uuid: UUID_A, major: '1', minor: '1', ...x }];
    assertError(await bad('nope'), 400, 'beacons', 'beacons must be an array');
    assertError(await bad({ uuid: UUID_A }), 400, 'beacons', 'beacons must be an array');
    assertError(await bad(['x']), 400, 'beacons', 'beacons[0] must be an object');
    assertError(await bad(item({ uuid: 'not-a-uuid' })), 400, 'beacons', 'beacons[0].uuid must be a UUID');
    assertError(
      await bad(item({ major: 70000 })),
      400,
      'beacons',
      'beacons[0].major must be an integer from 0 to 65535',
    );
    assertError(await bad(item({ minor: 'one' })), 400, 'beacons', 'beacons[0].minor must be an integer');
    assertError(await bad(item({ rssi: 5 })), 400, 'beacons', 'beacons[0].rssi must be a number from -200 to 0');
    assertError(await bad(item({ distance: -1 })), 400, 'beacons', 'beacons[0].distance must be a number of meters');
    assertError(await bad(Array(101).fill(item({})[0])), 400, 'beacons', 'beacons must have at most 100 items');
    const form = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      form: { deviceId: 'dev-beacon-form', latitude: '40.7', longitude: '-73.9', accuracy: '10', beacons: '[{' },
    });
    assertError(form, 400, 'beacons', 'beacons must be an array');
    const replay = await s.request('POST', '/v1/track/replay', {
      key: s.keys.test.publishable,
      json: { replays: [trackBody('dev-beacon-replay', BROOKLYN, { beacons: item({ uuid: 'x' }) })] },
    });
    assertError(replay, 400, 'replays[0].beacons', 'replays[0].beacons[0].uuid must be a UUID');
  });

  it('GET /v1/search/beacons: enabled beacons within the radius, nearest first, with their UUIDs', async () => {
    const near = `near=${BROOKLYN[1]},${BROOKLYN[0]}`;
    const all = await search(near);
    assertOk(all);
    assert.deepEqual(
      all.body.beacons.map((b: { _id: string }) => b._id),
      [ids.front, ids.back],
    );
    assert.deepEqual(all.body.meta.settings.beacons.uuids, [UUID_A.toLowerCase()]);
    assert.equal(all.body.beacons[0].major, '100');
    assert.deepEqual(all.body.beacons[0].geometry.type, 'Point');
    const small = await search(`${near}&radius=100&limit=5`);
    assert.deepEqual(
      small.body.beacons.map((b: { _id: string }) => b._id),
      [ids.front],
    );
    const one = await search(`${near}&limit=1`);
    assert.equal(one.body.beacons.length, 1);
    const farAway = offset(BROOKLYN, 1900, 0);
    const far = await search(`near=${farAway[1]},${farAway[0]}&radius=500`);
    assert.deepEqual(far.body.meta.settings.beacons.uuids, [UUID_B.toLowerCase()]);
    const none = await search('near=0,0');
    assert.deepEqual(none.body, { meta: { code: 200, settings: { beacons: { uuids: [] } } }, beacons: [] });
    // Secret keys may call it too; the live environment has none of the test beacons.
    assertOk(await search(near, s.keys.test.secret));
    assert.deepEqual((await search(near, s.keys.live.publishable)).body.beacons, []);
  });

  it('GET /v1/search/beacons rejects bad parameters, naming each', async () => {
    assertError(await search(''), 400, 'near', 'near is required');
    assertError(await search('near=91,0'), 400, 'near', 'near must be "latitude,longitude"');
    assertError(await search('near=abc'), 400, 'near', 'near must be');
    assertError(await search('near=40,-73&radius=1001'), 400, 'radius', 'radius must be a number between 1 and 1000');
    assertError(await search('near=40,-73&radius=0'), 400, 'radius', 'radius must be');
    assertError(await search('near=40,-73&radius=x'), 400, 'radius', 'radius must be');
    assertError(await search('near=40,-73&limit=0'), 400, 'limit', 'limit must be an integer between 1 and 100');
    assertError(await search('near=40,-73&limit=101'), 400, 'limit', 'limit must be');
    assertError(await search('near=40,-73&limit=2.5'), 400, 'limit', 'limit must be');
    assertError(await search('near=40,-73', 'nope'), 401);
  });
});
