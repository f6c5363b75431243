import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, putCircle, track, trackBody } from './helpers/tracking.js';

const near = (p: LonLat) => `${p[1]},${p[0]}`;

describe('GET /v1/search/geofences', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const P = offset(BROOKLYN, -6000, -6000);
  const fences: Record<string, string> = {};
  const search = (query: string, key = s.keys.test.publishable) =>
    s.request('GET', `/v1/search/geofences?near=${near(P)}${query}`, { key });
  const names = (res: { body: { geofences: Array<{ externalId: string }> } }) =>
    res.body.geofences.map((g) => g.externalId);

  before(async () => {
    s = await startServer({ clock });
    fences.a = await putCircle(s, 'store', 'a', P, 50, { metadata: { open: true, floor: 2, brand: 'acme' } });
    fences.b = await putCircle(s, 'store', 'b', offset(P, 300, 0), 50, { metadata: { open: false, floor: '2' } });
    fences.c = await putCircle(s, 'office', 'c', offset(P, 0, 600), 50);
    fences.d = await putCircle(s, 'store', 'd', offset(P, 2000, 0), 50);
    await putCircle(s, 'store', 'disabled', offset(P, 100, 0), 50, { enabled: false });
    await putCircle(s, 'store', 'live', P, 50, {}, s.keys.live.secret);
  });
  after(() => s.close());

  it('finds fences within 1000 m by default, nearest first, with geometry by default', async () => {
    const res = await search('');
    assertOk(res);
    assert.deepEqual(names(res), ['a', 'b', 'c']);
    const a = res.body.geofences[0];
    assert.equal(a._id, fences.a);
    assert.equal(a.geometry.type, 'Polygon');
    assert.deepEqual(a.geometryCenter, { type: 'Point', coordinates: P });
  });

  it('honours radius, tags, limit and includeGeometry', async () => {
    assert.deepEqual(names(await search('&radius=2500')), ['a', 'b', 'c', 'd']);
    assert.deepEqual(names(await search('&radius=280')), ['a', 'b']);
    assert.deepEqual(names(await search('&radius=100')), ['a']);
    assert.deepEqual(names(await search('&tags=store&radius=2500')), ['a', 'b', 'd']);
    assert.deepEqual(names(await search('&tags=office,store')), ['a', 'b', 'c']);
    assert.deepEqual(names(await search('&tags=nothing')), []);
    assert.deepEqual(names(await search('&limit=2')), ['a', 'b']);
    const lean = await search('&includeGeometry=false');
    assert.ok(lean.body.geofences.every((g: { geometry?: unknown }) => g.geometry === undefined));
  });

  it('filters by metadata[key] with the type inferred', async () => {
    assert.deepEqual(names(await search('&metadata[open]=true')), ['a']);
    assert.deepEqual(names(await search('&metadata[open]=false')), ['b']);
    assert.deepEqual(names(await search('&metadata[floor]=2')), ['a', 'b']);
    assert.deepEqual(names(await search('&metadata[brand]=acme&metadata[floor]=2')), ['a']);
    assert.deepEqual(names(await search('&metadata%5Bbrand%5D=acme')), ['a']);
    assert.deepEqual(names(await search('&metadata[brand]=other')), []);
  });

  it('returns geometry as stored, for polygons and circles alike', async () => {
    const [lon, lat] = offset(P, 50_000, 0);
    const ring = [
      [lon, lat],
      [lon + 0.002, lat],
      [lon + 0.002, lat + 0.002],
      [lon, lat + 0.002],
      [lon, lat],
    ];
    const put = await s.request('PUT', '/v1/geofences/far/poly', {
      key: s.keys.test.secret,
      json: { description: 'Poly', type: 'polygon', coordinates: ring },
    });
    assertOk(put);
    const circle = await putCircle(s, 'far', 'circle', [lon - 0.003, lat], 100);
    const stored = await s.request('GET', `/v1/geofences/${circle}`, { key: s.keys.test.secret });
    const res = await s.request('GET', `/v1/search/geofences?near=${lat},${lon}&radius=1000`, {
      key: s.keys.test.publishable,
    });
    const byId = new Map(res.body.geofences.map((g: { _id: string }) => [g._id, g]));
    assert.deepEqual((byId.get(put.body.geofence._id) as { geometry: unknown }).geometry, put.body.geofence.geometry);
    assert.deepEqual((byId.get(circle) as { geometry: unknown }).geometry, stored.body.geofence.geometry);
  });

  it('ignores the web SDK sending metadata=[object Object]', async () => {
    const res = await search('&metadata=%5Bobject%20Object%5D&tags=store&limit=10&includeGeometry=true');
    assertOk(res);
    assert.deepEqual(names(res), ['a', 'b']);
  });

  it('leaves out disabled fences and other environments', async () => {
    const res = await search('&radius=150');
    assert.deepEqual(names(res), ['a']);
    const live = await search('', s.keys.live.publishable);
    assert.deepEqual(names(live), ['live']);
  });

  describe('rejects', () => {
    for (const [query, param] of [
      ['&radius=99', 'radius'],
      ['&radius=10001', 'radius'],
      ['&radius=far', 'radius'],
      ['&limit=0', 'limit'],
      ['&limit=101', 'limit'],
      ['&limit=1.5', 'limit'],
      ['&includeGeometry=maybe', 'includeGeometry'],
      ['&metadata={"a":{"b":1}}', 'metadata'],
    ] as const) {
      it(query, async () => assertError(await search(query), 400, param));
    }
    it('near missing or invalid', async () => {
      assertError(await s.request('GET', '/v1/search/geofences', { key: s.keys.test.publishable }), 400, 'near');
      assertError(
        await s.request('GET', '/v1/search/geofences?near=95,10', { key: s.keys.test.publishable }),
        400,
        'near',
      );
      assertError(
        await s.request('GET', '/v1/search/geofences?near=here', { key: s.keys.test.publishable }),
        400,
        'near',
      );
    });
    it('no key', async () =>
      assertError(await s.request('GET', `/v1/search/geofences?near=${near(P)}`), 401, 'Authorization'));
  });
});

describe('GET /v1/search/users', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const P = offset(BROOKLYN, 6000, -6000);
  const search = (query: string, key = s.keys.test.secret) =>
    s.request('GET', `/v1/search/users?near=${near(P)}${query}`, { key });
  const names = (res: { body: { users: Array<{ deviceId: string }> } }) => res.body.users.map((u) => u.deviceId);

  before(async () => {
    s = await startServer({ clock });
    await putCircle(s, 'home', 'p', P, 50);
    await track(s, trackBody('u-a', P));
    await track(s, trackBody('u-b', offset(P, 200, 0), { metadata: { role: 'driver', active: true } }));
    await track(s, trackBody('u-c', offset(P, 0, -800), { metadata: { role: 'driver', active: false } }));
    await track(s, trackBody('u-d', offset(P, 3000, 0)));
    await track(s, trackBody('u-live', P), s.keys.live.publishable);
  });
  after(() => s.close());

  it('finds users within 1000 m by default, nearest first, with their fences', async () => {
    const res = await search('');
    assertOk(res);
    assert.deepEqual(names(res), ['u-a', 'u-b', 'u-c']);
    assert.equal(res.body.users[0].geofences.length, 1);
    assert.equal(res.body.users[0].geofences[0].externalId, 'p');
    assert.deepEqual(res.body.users[1].location.coordinates, offset(P, 200, 0));
  });

  it('honours radius, metadata[key] and limit', async () => {
    assert.deepEqual(names(await search('&radius=5000')), ['u-a', 'u-b', 'u-c', 'u-d']);
    assert.deepEqual(names(await search('&radius=100')), ['u-a']);
    assert.deepEqual(names(await search('&metadata[role]=driver')), ['u-b', 'u-c']);
    assert.deepEqual(names(await search('&metadata[active]=true')), ['u-b']);
    assert.deepEqual(names(await search('&metadata[active]=false&metadata[role]=driver')), ['u-c']);
    assert.deepEqual(names(await search('&limit=2')), ['u-a', 'u-b']);
    assert.deepEqual(names(await search('&limit=1&metadata[role]=driver')), ['u-b']);
  });

  it('with mode, reads radius as minutes of travel (the route estimate here: no roads imported)', async () => {
    // The estimate is the straight line times a detour factor at an average speed (ARCHITECTURE.md §5):
    // foot 5 km/h ×1.2: 5 min reach about 347 m; bike 15 km/h ×1.25: 2 min 400 m, 5 min 1 km;
    // car 40 km/h ×1.3: 6 min about 3.1 km.
    assert.deepEqual(names(await search('&mode=foot&radius=5')), ['u-a', 'u-b']);
    assert.deepEqual(names(await search('&mode=bike&radius=2')), ['u-a', 'u-b']);
    assert.deepEqual(names(await search('&mode=bike&radius=5')), ['u-a', 'u-b', 'u-c']);
    assert.deepEqual(names(await search('&mode=car&radius=6')), ['u-a', 'u-b', 'u-c', 'u-d']);
    assert.deepEqual(names(await search('&mode=car&radius=4')), ['u-a', 'u-b', 'u-c']);
    // Without radius, 10 minutes: on foot about 694 m of straight line.
    assert.deepEqual(names(await search('&mode=foot')), ['u-a', 'u-b']);
  });

  it('follows users as they move and forgets deleted ones', async () => {
    clock.advance(1000);
    await track(s, trackBody('u-a', offset(P, 5000, 5000)));
    assert.deepEqual(names(await search('')), ['u-b', 'u-c']);
    await track(s, trackBody('u-new', offset(P, 10, 0)));
    assert.deepEqual(names(await search('')), ['u-new', 'u-b', 'u-c']);
    assertOk(await s.request('DELETE', '/v1/users/u-b', { key: s.keys.test.secret }));
    assert.deepEqual(names(await search('')), ['u-new', 'u-c']);
    assert.deepEqual(names(await search('&limit=1&metadata[role]=driver')), ['u-c']);
  });

  it('keeps environments apart', async () => {
    assert.deepEqual(names(await search('', s.keys.live.secret)), ['u-live']);
  });

  describe('rejects', () => {
    for (const [query, param] of [
      ['&radius=99', 'radius'],
      ['&radius=10001', 'radius'],
      ['&radius=0', 'radius'],
      ['&mode=foot&radius=0.5', 'radius'],
      ['&mode=foot&radius=10001', 'radius'],
      ['&mode=plane', 'mode'],
      ['&limit=0', 'limit'],
      ['&limit=101', 'limit'],
      ['&metadata={"a":[1]}', 'metadata'],
    ] as const) {
      it(query, async () => assertError(await search(query), 400, param));
    }
    it('near missing or invalid', async () => {
      assertError(await s.request('GET', '/v1/search/users', { key: s.keys.test.secret }), 400, 'near');
      assertError(await s.request('GET', '/v1/search/users?near=1,2,3', { key: s.keys.test.secret }), 400, 'near');
    });
    it('a publishable key', async () => assertError(await search('', s.keys.test.publishable), 403, 'Authorization'));
  });
});
