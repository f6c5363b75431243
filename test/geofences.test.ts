import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import {
  assertExactlyOnce,
  assertNewestFirst,
  circleBody,
  haversineMeters,
  makeUser,
  pageThrough,
  square,
} from './helpers/fixtures.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';

type Position = [number, number];

/** How `pageThrough` walks GET /v1/geofences: newest first, by `createdBefore`. */
const FENCE_PAGES = { path: '/v1/geofences', field: 'geofences', timeField: 'createdAt', cursor: 'createdBefore' };

describe('geofences', () => {
  let s: TestServer;
  let clock: ManualClock;
  let key: string;
  const put = (path: string, json: unknown) => s.request('PUT', `/v1/geofences/${path}`, { key, json });
  before(async () => {
    clock = new ManualClock();
    s = await startServer({ clock });
    key = s.keys.test.secret;
  });
  after(() => s.close());

  describe('upsert', () => {
    it('creates, then updates in place keeping _id and createdAt while updatedAt moves', async () => {
      const created = await put('stores/upd-1', circleBody({ description: 'First', metadata: { a: 1 } }));
      assertOk(created);
      const g = created.body.geofence;
      assert.match(g._id, /^[0-9a-f]{24}$/);
      assert.equal(g.live, false);
      assert.equal(g.tag, 'stores');
      assert.equal(g.externalId, 'upd-1');
      assert.equal(g.description, 'First');
      assert.equal(g.type, 'circle');
      assert.equal(g.enabled, true, 'enabled defaults to true');
      assert.deepEqual(g.metadata, { a: 1 });
      assertIsoMs(g.createdAt);
      assertIsoMs(g.updatedAt);
      assert.equal(g.createdAt, new Date(clock.now()).toISOString());

      clock.advance(5000);
      const updated = await put('stores/upd-1', {
        description: 'Second',
        type: 'polygon',
        coordinates: square(-73.99, 40.7),
        enabled: false,
      });
      assertOk(updated);
      const u = updated.body.geofence;
      assert.equal(u._id, g._id);
      assert.equal(u.createdAt, g.createdAt);
      assert.equal(Date.parse(u.updatedAt) - Date.parse(g.updatedAt), 5000);
      assert.equal(u.description, 'Second');
      assert.equal(u.type, 'polygon');
      assert.equal(u.enabled, false);
      assert.equal(u.metadata, undefined, 'an upsert replaces the fence: metadata not sent is gone');

      const read = await s.request('GET', `/v1/geofences/${g._id}`, { key });
      assertOk(read);
      assert.deepEqual(read.body.geofence, u);
    });

    it('stores a circle as a polygon of at least 64 vertices with its center and radius', async () => {
      const center: Position = [-73.9867, 40.7039];
      const res = await put('shapes/circle', circleBody({ coordinates: center, radius: 250 }));
      assertOk(res);
      const g = res.body.geofence;
      assert.deepEqual(g.geometryCenter, { type: 'Point', coordinates: center });
      assert.equal(g.geometryRadius, 250);
      assert.equal(g.geometry.type, 'Polygon');
      const ring = g.geometry.coordinates[0] as Position[];
      assert.ok(ring.length >= 65, `ring has ${ring.length} positions`);
      assert.deepEqual(ring[0], ring[ring.length - 1], 'ring is closed');
      for (const p of ring) {
        const d = haversineMeters(center, p);
        assert.ok(Math.abs(d - 250) < 2, `vertex ${p} is ${d} m from the center`);
      }
    });

    it('accepts the radius bounds 10 and 10000', async () => {
      assertOk(await put('shapes/r10', circleBody({ radius: 10 })));
      assertOk(await put('shapes/r10000', circleBody({ radius: '10000' })));
    });

    it('accepts a polygon given as the ring itself, with its centroid and approximate radius', async () => {
      const ring = square(10, 20, 1);
      const res = await put('shapes/poly', { description: 'Square', type: 'polygon', coordinates: ring });
      assertOk(res);
      const g = res.body.geofence;
      assert.deepEqual(g.geometry, { type: 'Polygon', coordinates: [ring] });
      const [lon, lat] = g.geometryCenter.coordinates as Position;
      assert.ok(Math.abs(lon - 10.5) < 1e-6 && Math.abs(lat - 20.5) < 1e-6, `centroid ${lon},${lat}`);
      const corner = haversineMeters([10.5, 20.5], [10, 20]);
      assert.ok(Math.abs(g.geometryRadius - corner) < 0.01 * corner, `radius ${g.geometryRadius}, corner ${corner}`);
    });

    it('ignores radius for a polygon, whatever its value', async () => {
      for (const radius of [0, 50_000, '5']) {
        const res = await put('shapes/poly-radius', {
          description: 'P',
          type: 'polygon',
          coordinates: square(10, 20, 1),
          radius,
        });
        assertOk(res);
        assert.ok(Math.abs(res.body.geofence.geometryRadius - haversineMeters([10.5, 20.5], [10, 20])) < 1000);
      }
    });

    it('reads a JSON body sent with a charset parameter', async () => {
      const res = await s.request('PUT', '/v1/geofences/shapes/charset', {
        key,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: undefined,
      });
      assertError(res, 400, 'description');
      const ok = await fetch(`${s.url}/v1/geofences/shapes/charset`, {
        method: 'PUT',
        headers: { authorization: key, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(circleBody({ description: 'Café ☕' })),
      });
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { geofence: { description: string } }).geofence.description, 'Café ☕');
    });

    it('serves concurrent upserts of one new tag/externalId as one fence', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => put('race/one', circleBody({ description: `D${i}` }))),
      );
      for (const r of results) assertOk(r);
      assert.equal(new Set(results.map((r) => r.body.geofence._id)).size, 1);
      const list = await s.request('GET', '/v1/geofences?tag=race', { key });
      assert.equal(list.body.geofences.length, 1);
    });

    it('accepts a polygon ring wrapped as GeoJSON Polygon coordinates, with a hole', async () => {
      const outer = square(0, 0, 1);
      const hole: Position[] = [
        [0.4, 0.4],
        [0.4, 0.6],
        [0.6, 0.6],
        [0.6, 0.4],
        [0.4, 0.4],
      ];
      const wrapped = await put('shapes/wrapped', { description: 'Wrapped', type: 'polygon', coordinates: [outer] });
      assertOk(wrapped);
      assert.deepEqual(wrapped.body.geofence.geometry.coordinates, [outer]);
      const holed = await put('shapes/holed', { description: 'Holed', type: 'polygon', coordinates: [outer, hole] });
      assertOk(holed);
      assert.deepEqual(holed.body.geofence.geometry.coordinates, [outer, hole]);
      const [lon, lat] = holed.body.geofence.geometryCenter.coordinates as Position;
      assert.ok(Math.abs(lon - 0.5) < 1e-6 && Math.abs(lat - 0.5) < 1e-6);
    });

    it('accepts a polygon crossing the antimeridian, centered near 180 with a small radius', async () => {
      const ring: Position[] = [
        [179.5, -17],
        [-179.5, -17],
        [-179.5, -16],
        [179.5, -16],
        [179.5, -17],
      ];
      const res = await put('shapes/fiji', { description: 'Fiji', type: 'polygon', coordinates: ring });
      assertOk(res);
      const g = res.body.geofence;
      const [lon, lat] = g.geometryCenter.coordinates as Position;
      assert.ok(Math.abs(Math.abs(lon) - 180) < 1e-6, `centroid longitude ${lon} should be at the antimeridian`);
      assert.ok(Math.abs(lat + 16.5) < 1e-6);
      assert.ok(g.geometryRadius > 50_000 && g.geometryRadius < 100_000, `radius ${g.geometryRadius}`);
    });

    it('accepts polygons of exactly 4 and exactly 10,000 positions', async () => {
      const triangle: Position[] = [
        [0, 0],
        [1, 0],
        [0, 1],
        [0, 0],
      ];
      assertOk(await put('shapes/tri', { description: 'Tri', type: 'polygon', coordinates: triangle }));
      const big = regularRing([5, 5], 0.5, 9999);
      assert.equal(big.length, 10_000);
      assertOk(await put('shapes/big', { description: 'Big', type: 'polygon', coordinates: big }));
    });

    it('reads a form body with coordinates and metadata as JSON strings and typed scalars', async () => {
      const ring = square(2, 2);
      const res = await s.request('PUT', '/v1/geofences/forms/f-1', {
        key,
        form: {
          description: 'Form fence',
          type: 'polygon',
          coordinates: JSON.stringify(ring),
          metadata: JSON.stringify({ color: 'red', floors: 3, open: true }),
          enabled: 'false',
          stopDetection: 'true',
          userId: 'user-7',
          disableAfter: '2030-01-01T00:00:00.000Z',
        },
      });
      assertOk(res);
      const g = res.body.geofence;
      assert.deepEqual(g.geometry.coordinates, [ring]);
      assert.deepEqual(g.metadata, { color: 'red', floors: 3, open: true });
      assert.equal(g.enabled, false);
      assert.equal(g.stopDetection, true);
      assert.equal(g.userId, 'user-7');
      assert.equal(g.disableAfter, '2030-01-01T00:00:00.000Z');

      const circle = await s.request('PUT', '/v1/geofences/forms/f-2', {
        key,
        form: {
          description: 'Form circle',
          type: 'circle',
          coordinates: '[-73.98,40.7]',
          radius: '50',
          'metadata[zone]': 'a',
        },
      });
      assertOk(circle);
      assert.equal(circle.body.geofence.geometryRadius, 50);
      assert.deepEqual(circle.body.geofence.metadata, { zone: 'a' });
    });

    it('reads JSON strings in a JSON body and takes null as absent', async () => {
      const res = await put('forms/j-1', {
        description: 'Strings',
        type: 'circle',
        coordinates: '[-73.98, 40.7]',
        radius: '75',
        metadata: '{"k":"v"}',
        userId: null,
        enabled: null,
        deleteAfter: null,
        unknownField: 'ignored',
      });
      assertOk(res);
      const g = res.body.geofence;
      assert.deepEqual(g.metadata, { k: 'v' });
      assert.equal(g.geometryRadius, 75);
      assert.equal(g.enabled, true);
      assert.equal(g.userId, undefined);
      assert.equal(g.deleteAfter, undefined);
    });

    it('accepts exactly 16 metadata keys', async () => {
      const metadata = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i % 2 ? `v${i}` : i]));
      const res = await put('meta/m16', circleBody({ metadata }));
      assertOk(res);
      assert.deepEqual(res.body.geofence.metadata, metadata);
    });
  });

  describe('rejected upserts name the parameter', () => {
    const ring = square(0, 0, 1);
    const polygon = (coordinates: unknown) => ({ description: 'P', type: 'polygon', coordinates });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['description missing', { type: 'circle', coordinates: [0, 0], radius: 100 }, 'description'],
      ['description blank', circleBody({ description: '   ' }), 'description'],
      ['description not a string', circleBody({ description: { a: 1 } }), 'description'],
      ['description too long', circleBody({ description: 'x'.repeat(1001) }), 'description'],
      ['type missing', { description: 'x', coordinates: [0, 0], radius: 100 }, 'type'],
      ['type invalid', circleBody({ type: 'square' }), 'type'],
      ['isochrone radius in meters', circleBody({ type: 'isochrone', radius: 100, mode: 'car' }), 'radius'],
      ['isochrone radius missing', circleBody({ type: 'isochrone', radius: undefined, mode: 'car' }), 'radius'],
      ['isochrone coordinates a ring', circleBody({ type: 'isochrone', coordinates: ring, radius: 5 }), 'coordinates'],
      ['coordinates missing', { description: 'x', type: 'circle', radius: 100 }, 'coordinates'],
      ['coordinates not JSON', circleBody({ coordinates: 'not json' }), 'coordinates'],
      ['circle coordinates a single number', circleBody({ coordinates: [1] }), 'coordinates'],
      ['circle coordinates a ring', circleBody({ coordinates: ring }), 'coordinates'],
      ['circle coordinates strings', circleBody({ coordinates: ['a', 'b'] }), 'coordinates'],
      ['circle coordinates a dictionary', circleBody({ coordinates: { lat: 1, lng: 2 } }), 'coordinates'],
      ['circle longitude out of range', circleBody({ coordinates: [181, 0] }), 'coordinates'],
      ['circle latitude out of range', circleBody({ coordinates: [0, -91] }), 'coordinates'],
      ['polygon coordinates a point', polygon([1, 2]), 'coordinates'],
      ['polygon coordinates empty', polygon([]), 'coordinates'],
      [
        'polygon unclosed',
        polygon([
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ]),
        'coordinates',
      ],
      [
        'polygon of 3 positions',
        polygon([
          [0, 0],
          [1, 0],
          [0, 0],
        ]),
        'coordinates',
      ],
      ['polygon of 10,001 positions', polygon(regularRing([5, 5], 0.5, 10_000)), 'coordinates'],
      [
        'polygon self-intersecting (bow tie)',
        polygon([
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ]),
        'coordinates',
      ],
      [
        'polygon latitude out of range',
        polygon([
          [0, 0],
          [1, 0],
          [1, 91],
          [0, 0],
        ]),
        'coordinates',
      ],
      [
        'polygon longitude out of range',
        polygon([
          [0, 0],
          [-181, 0],
          [1, 1],
          [0, 0],
        ]),
        'coordinates',
      ],
      ['polygon position not a pair', polygon([[0, 0], [1], [1, 1], [0, 0]]), 'coordinates'],
      [
        'polygon with a bad hole',
        polygon([
          ring,
          [
            [0.2, 0.2],
            [0.3, 0.3],
            [0.2, 0.2],
          ],
        ]),
        'coordinates',
      ],
      ['radius missing for a circle', { description: 'x', type: 'circle', coordinates: [0, 0] }, 'radius'],
      ['radius below 10', circleBody({ radius: 9.9 }), 'radius'],
      ['radius above 10000', circleBody({ radius: 10_001 }), 'radius'],
      ['radius zero', circleBody({ radius: 0 }), 'radius'],
      ['radius not a number', circleBody({ radius: 'abc' }), 'radius'],
      [
        'metadata with 17 keys',
        circleBody({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) }),
        'metadata',
      ],
      ['metadata with a nested value', circleBody({ metadata: { a: { b: 1 } } }), 'metadata'],
      ['metadata with an array value', circleBody({ metadata: { a: [1] } }), 'metadata'],
      ['metadata an array', circleBody({ metadata: [1, 2] }), 'metadata'],
      ['metadata a number', circleBody({ metadata: 5 }), 'metadata'],
      ['metadata a non-JSON string', circleBody({ metadata: 'color=red' }), 'metadata'],
      ['metadata a JSON string of a list', circleBody({ metadata: '[1]' }), 'metadata'],
      ['userId not a string', circleBody({ userId: { id: 1 } }), 'userId'],
      ['enabled not a boolean', circleBody({ enabled: 'maybe' }), 'enabled'],
      ['enabled a number other than 0/1', circleBody({ enabled: 2 }), 'enabled'],
      ['disableAfter not a datetime', circleBody({ disableAfter: 'tomorrow' }), 'disableAfter'],
      ['disableAfter an impossible date', circleBody({ disableAfter: '2026-02-30T10:00:00Z' }), 'disableAfter'],
      ['deleteAfter not a datetime', circleBody({ deleteAfter: 12345 }), 'deleteAfter'],
      ['deleteAfter an impossible date', circleBody({ deleteAfter: '2026-04-31' }), 'deleteAfter'],
      ['stopDetection not a boolean', circleBody({ stopDetection: 'sometimes' }), 'stopDetection'],
      ['mode not a travel mode', circleBody({ mode: 'plane' }), 'mode'],
    ];
    for (const [name, body, param] of cases) {
      it(`${name} -> 400 ${param}`, async () => {
        const res = await put('rejected/r-1', body);
        assertError(res, 400, param);
      });
    }

    it('a rejected upsert created nothing', async () => {
      assertError(await s.request('GET', '/v1/geofences/rejected/r-1', { key }), 404);
    });

    it('isochrone outside road coverage is the estimate circle, not a refusal', async () => {
      const res = await put('rejected/iso', circleBody({ type: 'isochrone', radius: 10, mode: 'car' }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.geofence.type, 'isochrone');
      assert.equal(res.body.geofence.geometryRadius, 10);
      assert.equal(res.body.geofence.geometry.type, 'Polygon');
      await s.request('DELETE', '/v1/geofences/rejected/iso', { key });
    });

    it('rejects a form body with bad JSON in coordinates and metadata', async () => {
      const bad = await s.request('PUT', '/v1/geofences/rejected/f', {
        key,
        form: { description: 'x', type: 'polygon', coordinates: '[[0,0],[1,0]' },
      });
      assertError(bad, 400, 'coordinates');
      const meta = await s.request('PUT', '/v1/geofences/rejected/f', {
        key,
        form: { description: 'x', type: 'circle', coordinates: '[0,0]', radius: '20', metadata: '{"a":' },
      });
      assertError(meta, 400, 'metadata');
    });

    it('rejects a path tag or externalId longer than 256 characters', async () => {
      assertError(await put(`${'t'.repeat(257)}/e`, circleBody()), 400, 'tag');
      assertError(await put(`t/${'e'.repeat(257)}`, circleBody()), 400, 'externalId');
    });
  });

  describe('get, list and delete', () => {
    let ids: string[] = [];
    before(async () => {
      // Four fences one second apart, two tags, in a tag no other test uses.
      ids = [];
      for (const [i, tag] of ['list-a', 'list-b', 'list-a', 'list-b'].entries()) {
        clock.advance(1000);
        const res = await put(`${tag}/e${i}`, circleBody({ description: `L${i}` }));
        assertOk(res);
        ids.push(res.body.geofence._id);
      }
    });

    it('gets by _id and by tag/externalId', async () => {
      const byId = await s.request('GET', `/v1/geofences/${ids[1]}`, { key });
      assertOk(byId);
      assert.equal(byId.body.geofence.externalId, 'e1');
      const byTag = await s.request('GET', '/v1/geofences/list-b/e1', { key });
      assertOk(byTag);
      assert.deepEqual(byTag.body.geofence, byId.body.geofence);
    });

    it('404s an unknown _id or tag/externalId', async () => {
      assertError(await s.request('GET', '/v1/geofences/0123456789abcdef01234567', { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/list-a/nope', { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/nope/e0', { key }), 404);
    });

    it('lists newest first with limit and hasMore', async () => {
      const first = await s.request('GET', '/v1/geofences?limit=2', { key });
      assertOk(first);
      assert.equal(first.body.meta.hasMore, true);
      assert.deepEqual(
        first.body.geofences.map((g: { _id: string }) => g._id),
        [ids[3], ids[2]],
      );
      const all = await s.request('GET', '/v1/geofences?limit=1000', { key });
      assert.equal(all.body.meta.hasMore, false);
      assertNewestFirst(all.body.geofences, 'createdAt');
    });

    it('filters by createdBefore and createdAfter', async () => {
      const t = (i: number) => encodeURIComponent(timeOf(i));
      const timeOf = (i: number) => new Date(Date.parse(createdAt[i]!)).toISOString();
      const createdAt: string[] = [];
      for (const id of ids)
        createdAt.push((await s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.createdAt);
      const before = await s.request('GET', `/v1/geofences?createdBefore=${t(2)}&tag=list-a`, { key });
      assertOk(before);
      assert.deepEqual(
        before.body.geofences.map((g: { _id: string }) => g._id),
        [ids[0]],
      );
      const between = await s.request('GET', `/v1/geofences?createdAfter=${t(0)}&createdBefore=${t(3)}`, { key });
      assertOk(between);
      assert.deepEqual(
        between.body.geofences.map((g: { _id: string }) => g._id),
        [ids[2], ids[1]],
      );
      const afterLast = await s.request('GET', `/v1/geofences?createdAfter=${t(3)}`, { key });
      assertOk(afterLast);
      assert.ok(!afterLast.body.geofences.some((g: { _id: string }) => ids.includes(g._id)));
    });

    it('filters by tag', async () => {
      const res = await s.request('GET', '/v1/geofences?tag=list-b&limit=1', { key });
      assertOk(res);
      assert.equal(res.body.meta.hasMore, true);
      assert.deepEqual(
        res.body.geofences.map((g: { _id: string }) => g._id),
        [ids[3]],
      );
      const rest = await s.request(
        'GET',
        `/v1/geofences?tag=list-b&createdBefore=${encodeURIComponent(res.body.geofences[0].createdAt)}`,
        {
          key,
        },
      );
      assert.deepEqual(
        rest.body.geofences.map((g: { _id: string }) => g._id),
        [ids[1]],
      );
      assert.equal(rest.body.meta.hasMore, false);
    });

    it('rejects bad list parameters', async () => {
      assertError(await s.request('GET', '/v1/geofences?limit=0', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/geofences?limit=1001', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/geofences?limit=abc', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/geofences?limit=2.5', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/geofences?createdBefore=yesterday', { key }), 400, 'createdBefore');
      assertError(await s.request('GET', '/v1/geofences?createdAfter=2026-13-01', { key }), 400, 'createdAfter');
      assertError(await s.request('GET', `/v1/geofences?tag=${'t'.repeat(257)}`, { key }), 400, 'tag');
    });

    it('deletes by _id, then 404 on every read', async () => {
      const del = await s.request('DELETE', `/v1/geofences/${ids[0]}`, { key });
      assertOk(del);
      assertError(await s.request('GET', `/v1/geofences/${ids[0]}`, { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/list-a/e0', { key }), 404);
      assertError(await s.request('DELETE', `/v1/geofences/${ids[0]}`, { key }), 404);
      const list = await s.request('GET', '/v1/geofences?tag=list-a', { key });
      assert.ok(!list.body.geofences.some((g: { _id: string }) => g._id === ids[0]));
    });

    it('deletes by tag/externalId, then 404', async () => {
      assertOk(await s.request('DELETE', '/v1/geofences/list-b/e1', { key }));
      assertError(await s.request('GET', `/v1/geofences/${ids[1]}`, { key }), 404);
      assertError(await s.request('DELETE', '/v1/geofences/list-b/e1', { key }), 404);
    });
  });

  describe('users in a geofence', () => {
    it('lists the users inside, newest update first, with hasMore', async () => {
      const inside = (await put('users/in', circleBody())).body.geofence._id as string;
      const other = (await put('users/other', circleBody())).body.geofence._id as string;
      const tenant = { projectId: s.projectId, live: false };
      const t0 = clock.now();
      const membership = (geofenceId: string) => ({ geofenceId, enteredAt: t0, dwelled: false });
      await s.deps.store.users.save(
        makeUser(tenant, { id: 'u-in-1', userId: 'in-1', updatedAt: t0 + 1, geofences: [membership(inside)] }),
      );
      await s.deps.store.users.save(
        makeUser(tenant, {
          id: 'u-in-2',
          userId: 'in-2',
          updatedAt: t0 + 2,
          geofences: [membership(inside), membership(other)],
        }),
      );
      await s.deps.store.users.save(
        makeUser(tenant, { id: 'u-out', userId: 'out', updatedAt: t0 + 3, geofences: [membership(other)] }),
      );

      const res = await s.request('GET', '/v1/geofences/users/in/users', { key });
      assertOk(res);
      assert.equal(res.body.meta.hasMore, false);
      assert.deepEqual(
        res.body.users.map((u: { userId: string }) => u.userId),
        ['in-2', 'in-1'],
      );
      assert.equal(res.body.users[0].geofences[0]._id, inside);

      const page = await s.request('GET', '/v1/geofences/users/in/users?limit=1', { key });
      assert.equal(page.body.meta.hasMore, true);
      assert.equal(page.body.users.length, 1);

      assertError(await s.request('GET', '/v1/geofences/users/nope/users', { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/users/in/users?limit=0', { key }), 400, 'limit');
    });
  });

  describe('temporary geofences (server clock)', () => {
    it('reads enabled: false once disableAfter has passed', async () => {
      const at = new Date(clock.now() + 60_000).toISOString();
      const res = await put('temp/disable', circleBody({ disableAfter: at }));
      assertOk(res);
      assert.equal(res.body.geofence.enabled, true);
      assert.equal(res.body.geofence.disableAfter, at);
      clock.advance(61_000);
      const read = await s.request('GET', '/v1/geofences/temp/disable', { key });
      assertOk(read);
      assert.equal(read.body.geofence.enabled, false);
      const list = await s.request('GET', '/v1/geofences?tag=temp', { key });
      assert.equal(list.body.geofences.find((g: { externalId: string }) => g.externalId === 'disable').enabled, false);
    });

    it('drops a fence from every read once deleteAfter has passed, and a new upsert starts afresh', async () => {
      const at = clock.now() + 60_000;
      const res = await put('temp/delete', circleBody({ deleteAfter: new Date(at).toISOString() }));
      assertOk(res);
      const g = res.body.geofence;
      const tenant = { projectId: s.projectId, live: false };
      await s.deps.store.users.save(
        makeUser(tenant, {
          id: 'u-temp',
          userId: 'temp-user',
          updatedAt: clock.now(),
          geofences: [{ geofenceId: g._id, enteredAt: clock.now(), dwelled: false }],
        }),
      );
      const userBefore = await s.request('GET', '/v1/users/temp-user', { key });
      assert.deepEqual(
        userBefore.body.user.geofences.map((x: { _id: string }) => x._id),
        [g._id],
      );
      assertOk(await s.request('GET', '/v1/geofences/temp/delete/users', { key }));

      clock.advance(60_000);
      assertError(await s.request('GET', `/v1/geofences/${g._id}`, { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/temp/delete', { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/temp/delete/users', { key }), 404);
      assertError(await s.request('DELETE', '/v1/geofences/temp/delete', { key }), 404);
      const list = await s.request('GET', '/v1/geofences?tag=temp&limit=1000', { key });
      assert.ok(!list.body.geofences.some((x: { _id: string }) => x._id === g._id));
      const user = await s.request('GET', '/v1/users/temp-user', { key });
      assert.deepEqual(user.body.user.geofences, []);

      clock.advance(1000);
      const again = await put('temp/delete', circleBody());
      assertOk(again);
      assert.notEqual(again.body.geofence._id, g._id, 'an expired fence is not brought back');
      assert.equal(again.body.geofence.createdAt, new Date(clock.now()).toISOString());
      assert.equal(again.body.geofence.deleteAfter, undefined);
    });
  });
});

describe('geofence pagination exactness', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  it('pages 250 fences created at once with limit=100 and the last createdAt: each exactly once, newest first', async (t) => {
    const key = s.keys.live.secret;
    const created = await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        s.request('PUT', `/v1/geofences/bulk/b${i}`, {
          key,
          json: circleBody({ description: `B${i}`, radius: 20 + i }),
        }),
      ),
    );
    const ids = created.map((r) => {
      assertOk(r);
      return r.body.geofence._id as string;
    });
    const times = new Set(created.map((r) => r.body.geofence.createdAt));
    // Many fences share a millisecond on any machine fast enough to matter; say so when none did.
    t.diagnostic(`250 fences over ${times.size} distinct creation times`);

    const items = await pageThrough(s, key, { ...FENCE_PAGES, limit: 100 });
    assertExactlyOnce(items, ids);
    assertNewestFirst(items, 'createdAt');

    const tagged = await pageThrough(s, key, { ...FENCE_PAGES, limit: 60, query: 'tag=bulk' });
    assertExactlyOnce(tagged, ids);
  });

  it('pages exactly when runs of 30 fences share each millisecond (pages end between runs)', async () => {
    // The real clock above may be too slow to put many creations in one millisecond; this server's
    // clock is held still while each group of 30 is created, then moved by 1 ms.
    const clock = new ManualClock();
    const held = await startServer({ clock });
    try {
      const key = held.keys.test.secret;
      const ids: string[] = [];
      for (let start = 0; start < 250; start += 30) {
        const group = await Promise.all(
          Array.from({ length: Math.min(30, 250 - start) }, (_, j) =>
            held.request('PUT', `/v1/geofences/runs/r${start + j}`, { key, json: circleBody({ description: 'R' }) }),
          ),
        );
        for (const r of group) {
          assertOk(r);
          ids.push(r.body.geofence._id);
        }
        clock.advance(1);
      }
      const items = await pageThrough(held, key, { ...FENCE_PAGES, limit: 100 });
      assertExactlyOnce(items, ids);
      assertNewestFirst(items, 'createdAt');
      // Newest first the runs are 10, 30, 30, ...: a page of 50 stops after the first two whole runs.
      const first = await held.request('GET', '/v1/geofences?limit=50', { key });
      assert.equal(first.body.geofences.length, 40, 'a page ends between two runs, never inside one');
      assert.equal(first.body.meta.hasMore, true);
    } finally {
      await held.close();
    }
  });
});

/** A regular polygon ring of `n` vertices (n + 1 positions, closed) around `center`. */
function regularRing(center: Position, radiusDeg: number, n: number): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    ring.push([center[0] + radiusDeg * Math.cos(a), center[1] + radiusDeg * Math.sin(a)]);
  }
  ring.push([ring[0]![0], ring[0]![1]]);
  return ring;
}
