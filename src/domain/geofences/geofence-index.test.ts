import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acrossAntimeridian, makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { seededRandom } from '../../../test/helpers/seeded-random.js';
import { circlePolygon } from '../../geo/circle-polygon.js';
import { destinationPoint, distanceMeters } from '../../geo/distance-meters.js';
import type { Position, Ring } from '../../geo/types.js';
import type { Geofence } from './geofence.js';
import { GeofenceIndex } from './geofence-index.js';
import { type BuiltTree, buildTreeHere, type TreeInput } from './packed-tree.js';
import { containsPoint, distanceToGeofenceMeters, type PreparedGeofence } from './prepared-geofence.js';

const C: Position = [-73.98, 40.75];

function circle(id: string, center: Position, radius: number, over: Partial<Geofence> = {}): Geofence {
  return makeCircleGeofence(
    { projectId: 'p', live: true },
    {
      id,
      tag: null,
      externalId: null,
      description: id,
      geometry: circlePolygon(center, radius),
      geometryCenter: center,
      geometryRadius: radius,
      createdAt: 0,
      updatedAt: 0,
      ...over,
    },
  );
}

function polygon(id: string, ring: Ring, center: Position): Geofence {
  return { ...circle(id, center, 1), type: 'polygon', geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** `meters` from C along `bearing` degrees. */
const at = (meters: number, bearing = 0): Position => destinationPoint(C, bearing, meters);
const ids = (list: PreparedGeofence[]) => list.map((g) => g.geofence.id).sort();

/** Removes `id` or upserts it anew (`place` draws its shape), in the index and in `all`, which it must match. */
function randomWrite(
  index: GeofenceIndex,
  all: Map<string, Geofence>,
  id: string,
  remove: boolean,
  place: (id: string) => Geofence,
): void {
  if (remove) {
    assert.equal(index.remove(id), all.delete(id));
    return;
  }
  const g = place(id);
  index.upsert(g);
  all.set(id, g);
}

describe('GeofenceIndex: load, get, upsert, remove', () => {
  it('bulk loads, counts, and finds fences whose box holds the point', () => {
    const index = new GeofenceIndex();
    index.load([circle('a', C, 100), circle('b', at(150), 100), circle('far', at(5000), 100)]);
    assert.equal(index.size, 3);
    assert.equal(index.get('b')?.geofence.id, 'b');
    assert.equal(index.get('nope'), undefined);
    assert.deepEqual(ids(index.candidatesAt(C[0], C[1], 0)), ['a']);
    assert.deepEqual(ids(index.candidatesAt(...at(75), 0)), ['a', 'b']);
  });

  it('grows each box by the margin', () => {
    const index = new GeofenceIndex();
    index.load([circle('a', C, 100)]);
    const p = at(160);
    assert.deepEqual(index.candidatesAt(p[0], p[1], 0), []);
    assert.deepEqual(ids(index.candidatesAt(p[0], p[1], 100)), ['a']);
  });

  it('keeps the last of duplicate ids in a load; a later load upserts into what is there', () => {
    const index = new GeofenceIndex();
    index.load([circle('a', at(5000), 100), circle('a', C, 100)]);
    assert.equal(index.size, 1);
    assert.deepEqual(ids(index.candidatesAt(C[0], C[1], 0)), ['a']);
    const reversed = new GeofenceIndex();
    reversed.load([circle('a', C, 100), circle('a', at(5000), 100)]);
    assert.deepEqual(reversed.candidatesAt(C[0], C[1], 0), []);
    assert.deepEqual(ids(reversed.candidatesAt(...at(5000), 0)), ['a']);
    index.upsert(circle('u', at(7000), 100));
    index.load([circle('a', at(9000), 100), circle('b', C, 100)]);
    assert.equal(index.size, 3);
    assert.deepEqual(ids(index.candidatesAt(C[0], C[1], 0)), ['b']);
    assert.deepEqual(ids(index.candidatesAt(...at(9000), 0)), ['a']);
    assert.deepEqual(ids(index.candidatesAt(...at(7000), 0)), ['u'], 'a load keeps fences it does not mention');
  });

  it('upserts move a loaded fence, and remove forgets it', () => {
    const index = new GeofenceIndex();
    index.load([circle('a', C, 100), circle('b', C, 100)]);
    const moved = at(3000);
    index.upsert(circle('a', moved, 100));
    assert.equal(index.size, 2);
    assert.deepEqual(ids(index.candidatesAt(C[0], C[1], 0)), ['b']);
    assert.deepEqual(ids(index.candidatesAt(moved[0], moved[1], 0)), ['a']);
    index.upsert(circle('a', C, 100, { description: 'again' }));
    assert.deepEqual(ids(index.candidatesAt(moved[0], moved[1], 0)), []);
    assert.equal(index.get('a')?.geofence.description, 'again');
    assert.equal(index.remove('a'), true);
    assert.equal(index.remove('a'), false);
    assert.equal(index.get('a'), undefined);
    assert.deepEqual(ids(index.candidatesAt(C[0], C[1], 0)), ['b']);
    assert.equal(index.size, 1);
  });

  it('stays exact through thousands of upserts and removes (overlay and rebuilds)', () => {
    const index = new GeofenceIndex();
    const all = new Map<string, Geofence>();
    for (let i = 0; i < 9000; i++) {
      const g = circle(`f${i}`, at(37 * (i % 400), (i * 7) % 360), 50 + (i % 5) * 40);
      index.upsert(g);
      all.set(g.id, g);
      if (i % 3 === 0 && i > 0) {
        index.remove(`f${i - 1}`);
        all.delete(`f${i - 1}`);
      }
    }
    assert.equal(index.size, all.size);
    for (let k = 0; k < 300; k++) {
      const p = at((k * 53) % 15000, (k * 31) % 360);
      const found = index.candidatesAt(p[0], p[1], 0);
      assert.equal(new Set(found).size, found.length, 'no duplicates');
      const expected = [...all.keys()].filter((id) => containsPoint(index.get(id)!, p[0], p[1]));
      const got = new Set(found.map((g) => g.geofence.id));
      for (const id of expected) assert.ok(got.has(id), `missing ${id}`);
      for (const id of got) assert.ok(all.has(id), `removed ${id} returned`);
    }
  });
  it('stays exact while fences move, span the antimeridian, go and come back across rebuilds', () => {
    const index = new GeofenceIndex();
    const all = new Map<string, Geofence>();
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    // Half the fences near C, half astride the antimeridian, so second boxes go through rebuilds too.
    const place = (id: string): Geofence =>
      rand() < 0.5
        ? circle(id, at(rand() * 12_000, rand() * 360), 50 + rand() * 400)
        : circle(id, [rand() < 0.5 ? 179.999 : -179.999, rand() * 0.1], 300 + rand() * 400);
    const fences = (from: number, count: number) => Array.from({ length: count }, (_, i) => place(`f${from + i}`));
    for (const g of fences(0, 3000)) all.set(g.id, g);
    index.load([...all.values()]);
    // 20,000 writes over 6,000 ids: moves of held fences, new ones, removals, and a load in between.
    for (let i = 0; i < 20_000; i++) {
      randomWrite(index, all, `f${Math.floor(rand() * 6000)}`, rand() < 0.2, place);
      if (i === 10_000) {
        const batch = fences(6000, 500);
        index.load(batch);
        for (const g of batch) all.set(g.id, g);
      }
    }
    assert.equal(index.size, all.size);
    const probes: Position[] = [
      ...Array.from({ length: 200 }, () => at(rand() * 12_000, rand() * 360)),
      ...Array.from(
        { length: 100 },
        (): Position => [rand() < 0.5 ? 180 - rand() * 0.01 : -180 + rand() * 0.01, rand() * 0.1],
      ),
    ];
    for (const [lon, lat] of probes) {
      const found = index.candidatesAt(lon, lat, 0).map((g) => g.geofence);
      assert.equal(new Set(found).size, found.length, 'no duplicates');
      for (const g of found) assert.equal(all.get(g.id), g, `${g.id}: held as upserted last`);
      const expected = [...all.values()].filter((g) => containsPoint(index.get(g.id)!, lon, lat)).map((g) => g.id);
      const got = new Set(found.map((g) => g.id));
      for (const id of expected) assert.ok(got.has(id), `missing ${id} at ${lon},${lat}`);
      assert.deepEqual(ids(index.containing(lon, lat)), expected.sort());
    }
  });
});

describe('GeofenceIndex: trees built elsewhere', () => {
  /** A builder whose builds wait until the test settles them: built here (as the thread would), or failed. */
  function heldBuilder() {
    const held: { input: TreeInput; resolve: (built: BuiltTree) => void; reject: (err: Error) => void }[] = [];
    const buildTree = (input: TreeInput) =>
      new Promise<BuiltTree>((resolve, reject) => held.push({ input, resolve, reject }));
    const finish = (fail = false) => {
      for (const { input, resolve, reject } of held.splice(0)) {
        const built = buildTreeHere(input);
        if (fail || !built) reject(new Error('thread stopped'));
        else resolve(built);
      }
    };
    return { buildTree, held, finish };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  it('answers exactly while builds are in flight, when they land, fail, or a load overtakes them', async () => {
    const builder = heldBuilder();
    const index = new GeofenceIndex({ buildTree: builder.buildTree, backgroundFrom: 0 });
    const all = new Map<string, Geofence>();
    // mulberry32: the other tests' LCG repeats too soon for 40,000 draws of several values each.
    const rand = seededRandom(11);
    const place = (id: string): Geofence =>
      rand() < 0.7
        ? circle(id, at(rand() * 12_000, rand() * 360), 50 + rand() * 400)
        : circle(id, [rand() < 0.5 ? 179.999 : -179.999, rand() * 0.1], 300 + rand() * 400);
    const initial = Array.from({ length: 3000 }, (_, i) => place(`f${i}`));
    for (const g of initial) all.set(g.id, g);
    index.load(initial);
    const check = () => {
      assert.equal(index.size, all.size);
      for (let k = 0; k < 40; k++) {
        const [lon, lat]: Position =
          k % 4 === 0
            ? [rand() < 0.5 ? 180 - rand() * 0.01 : -180 + rand() * 0.01, rand() * 0.1]
            : at(rand() * 12_000, rand() * 360);
        const found = index.candidatesAt(lon, lat, 0).map((g) => g.geofence);
        assert.equal(new Set(found).size, found.length, 'no duplicates');
        for (const g of found) assert.equal(all.get(g.id), g, `${g.id}: held as upserted last`);
        const expected = [...all.values()].filter((g) => containsPoint(index.get(g.id)!, lon, lat)).map((g) => g.id);
        assert.deepEqual(ids(index.containing(lon, lat)), expected.sort());
      }
    };
    let builds = 0;
    // 40,000 writes over 8,000 ids; now and then the held builds land, fail, or are overtaken by a load.
    for (let i = 0; i < 40_000; i++) {
      randomWrite(index, all, `f${Math.floor(rand() * 8000)}`, rand() < 0.2, place);
      if (builder.held.length > 0 && i % 1500 === 0) {
        check();
        builds += builder.held.length;
        if (i % 9000 === 0) {
          const batch = Array.from({ length: 200 }, (_, k) => place(`load${i}-${k}`));
          index.load(batch);
          for (const g of batch) all.set(g.id, g);
        }
        builder.finish(i % 7500 === 0);
        await settle();
        check();
      }
    }
    builder.finish();
    await settle();
    check();
    assert.ok(builds >= 3, `${builds} builds went elsewhere`);
  });

  it('builds small indexes in place', () => {
    const builder = heldBuilder();
    const index = new GeofenceIndex({ buildTree: builder.buildTree });
    for (let i = 0; i < 6000; i++) index.upsert(circle(`f${i}`, at(i, 0), 50));
    assert.equal(builder.held.length, 0);
    assert.deepEqual(ids(index.containing(...at(3000, 0))).includes('f3000'), true);
  });
});

describe('GeofenceIndex: antimeridian', () => {
  const ring = acrossAntimeridian(179.9);

  it('finds a spanning polygon and circle from both sides, once each', () => {
    const index = new GeofenceIndex();
    index.load([polygon('poly', ring, [180, 0]), circle('circ', [179.999, 0], 500)]);
    assert.deepEqual(ids(index.candidatesAt(179.95, 0, 0)), ['poly']);
    assert.deepEqual(ids(index.candidatesAt(-179.95, 0, 0)), ['poly']);
    assert.deepEqual(ids(index.candidatesAt(-179.9995, 0, 100)), ['circ', 'poly']);
    assert.deepEqual(ids(index.candidatesAt(180, 0, 1000)), ['circ', 'poly']);
    assert.deepEqual(index.candidatesAt(0, 0, 100), []);
  });

  it('finds an upserted spanning fence from both sides', () => {
    const index = new GeofenceIndex();
    index.upsert(polygon('poly', ring, [180, 0]));
    assert.deepEqual(ids(index.candidatesAt(-179.95, 0, 0)), ['poly']);
    assert.deepEqual(ids(index.candidatesAt(179.95, 0, 0)), ['poly']);
  });
});

describe('GeofenceIndex: near', () => {
  const index = new GeofenceIndex();
  index.load([
    circle('inside-big', at(300), 1000),
    circle('inside-small', at(50), 100),
    circle('ring-800', at(1000, 90), 200),
    circle('ring-400', at(600, 180), 200),
    // Its box reaches within 500 m of C, the circle itself does not: 650 m.
    circle('diagonal-650', at(850, 45), 200),
    circle('far', at(20_000), 200),
  ]);

  it('sorts by distance to the fence (0 inside), then by distance to its center', () => {
    const hits = index.near(C[0], C[1], 5000, { limit: 10 });
    assert.deepEqual(
      hits.map((h) => h.geofence.geofence.id),
      ['inside-small', 'inside-big', 'ring-400', 'diagonal-650', 'ring-800'],
    );
    assert.deepEqual(
      hits.map((h) => Math.round(h.distanceMeters)),
      [0, 0, 400, 650, 800],
    );
  });

  it('keeps only fences within the radius, measured to the boundary', () => {
    assert.deepEqual(
      index.near(C[0], C[1], 500, { limit: 10 }).map((h) => h.geofence.geofence.id),
      ['inside-small', 'inside-big', 'ring-400'],
    );
    assert.equal(index.near(C[0], C[1], 25_000, { limit: 10 }).length, 6);
  });

  it('applies the filter before the limit', () => {
    const hits = index.near(C[0], C[1], 5000, { limit: 2, filter: (g) => !g.geofence.id.startsWith('inside') });
    assert.deepEqual(
      hits.map((h) => h.geofence.geofence.id),
      ['ring-400', 'diagonal-650'],
    );
    assert.deepEqual(
      index.near(C[0], C[1], 5000, { limit: 1 }).map((h) => h.geofence.geofence.id),
      ['inside-small'],
    );
    assert.deepEqual(index.near(C[0], C[1], 5000, { limit: 0 }), []);
  });

  it('breaks a tie of both distances by id, also past the limit', () => {
    const twins = new GeofenceIndex();
    twins.load(['c', 'a', 'd', 'b'].map((id) => circle(id, at(50), 100)));
    assert.deepEqual(
      twins.near(C[0], C[1], 5000, { limit: 3 }).map((h) => h.geofence.geofence.id),
      ['a', 'b', 'c'],
    );
  });

  it('finds fences from the other side of the antimeridian', () => {
    const am = new GeofenceIndex();
    am.load([circle('east', [179.99, 0], 100), circle('west', [-179.98, 0], 100)]);
    const hits = am.near(-179.999, 0, 5000, { limit: 10 });
    assert.deepEqual(
      hits.map((h) => h.geofence.geofence.id),
      ['east', 'west'],
    );
  });
});

describe('GeofenceIndex: containing and near against every fence', () => {
  // Circles and star polygons, some sharing a center (ties), some across the antimeridian, a few
  // upserted or removed after the load (overlay, tombstones).
  const index = new GeofenceIndex();
  const all = new Map<string, Geofence>();
  let seed = 1;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const fenceNear = (id: string, origin: Position): Geofence => {
    const center = destinationPoint(origin, random() * 360, random() * 3000);
    const radius = 30 + Math.round(random() * 400);
    if (random() < 0.5) return circle(id, center, radius);
    const n = 3 + Math.floor(random() * 12);
    const ring: Position[] = [];
    for (let k = 0; k < n; k++) ring.push(destinationPoint(center, (k * 360) / n, radius * (0.4 + 0.6 * random())));
    ring.push(ring[0]!);
    return polygon(id, ring, center);
  };
  const origins: Position[] = [C, [179.995, 10]];
  const fences = Array.from({ length: 1200 }, (_, i) => fenceNear(`f${i}`, origins[i % 2]!));
  for (let i = 0; i < 40; i++) fences.push({ ...fences[i * 7]!, id: `twin${i}` });
  index.load(fences);
  for (const g of fences) all.set(g.id, g);
  for (let i = 0; i < 200; i++) {
    const g = fenceNear(`late${i}`, origins[i % 2]!);
    index.upsert(g);
    all.set(g.id, g);
    index.remove(`f${i * 3}`);
    all.delete(`f${i * 3}`);
  }
  const prepared = () => [...all.keys()].map((id) => index.get(id)!);
  const points = Array.from({ length: 150 }, (_, k) =>
    destinationPoint(origins[k % 2]!, random() * 360, random() * 3500),
  );

  it('containing() lists exactly the fences containing the point', () => {
    for (const p of [...points, ...[...all.values()].slice(0, 100).map((g) => g.geometryCenter)]) {
      const expected = prepared().filter((pg) => containsPoint(pg, p[0], p[1]));
      assert.deepEqual(ids(index.containing(p[0], p[1])), ids(expected));
    }
  });

  it('near() ranks as measuring and sorting every fence would', () => {
    const rank = (p: Position, pg: PreparedGeofence) => ({
      pg,
      d: distanceToGeofenceMeters(pg, p[0], p[1]),
      c: distanceMeters(pg.geofence.geometryCenter, p),
    });
    for (const [k, p] of points.entries()) {
      const radius = [100, 400, 1500][k % 3]!;
      const limit = [1, 5, 20][k % 3]!;
      const filter = k % 2 === 0 ? (pg: PreparedGeofence) => pg.geofence.id.endsWith('1') === false : undefined;
      const expected = prepared()
        .filter((pg) => !filter || filter(pg))
        .map((pg) => rank(p, pg))
        .filter((h) => h.d <= radius)
        .sort((a, b) => a.d - b.d || a.c - b.c || (a.pg.geofence.id < b.pg.geofence.id ? -1 : 1))
        .slice(0, limit);
      const got = index.near(p[0], p[1], radius, { limit, ...(filter ? { filter } : {}) });
      assert.deepEqual(
        got.map((h) => [h.geofence.geofence.id, h.distanceMeters]),
        expected.map((h) => [h.pg.geofence.id, h.d]),
      );
    }
  });
});
