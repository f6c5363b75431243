import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import type { Geofence } from '../geofences/geofence.js';
import { GeofenceIndexRegistry, type GeofenceSource } from './geofence-index-registry.js';

const tenant = { projectId: 'p1', live: false };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An in-memory fence source that counts the loads (first pages) read from it. */
function countingSource(fences: Geofence[]): GeofenceSource & { loads: number } {
  const source = {
    loads: 0,
    async list(_t: unknown, query: { before?: number }) {
      if (query.before === undefined) source.loads++;
      return { items: [...fences], hasMore: false };
    },
    async get(_t: unknown, id: string) {
      return fences.find((g) => g.id === id) ?? null;
    },
  };
  return source;
}

describe('GeofenceIndexRegistry', () => {
  it('reloads once after a burst of external commits, and then serves what they wrote', async () => {
    const fences = [makeCircleGeofence(tenant, { id: 'g1' })];
    const source = countingSource(fences);
    const registry = new GeofenceIndexRegistry(source);
    await registry.get(tenant);
    assert.equal(source.loads, 1);
    // A bulk import by another process: ten commits, each reported as a vague change.
    for (let i = 0; i < 10; i++) {
      fences.push(makeCircleGeofence(tenant, { id: `imported-${i}`, externalId: `i${i}` }));
      registry.storeChanged({ kind: 'unknown' });
      await sleep(20);
    }
    assert.equal(source.loads, 1, 'no reload while the commits keep coming');
    await sleep(600);
    assert.equal(source.loads, 2, 'one reload once they paused');
    const index = await registry.get(tenant);
    assert.ok(index.get('imported-9'), 'the reloaded index has the last imported fence');
  });

  it('loads page by page, letting the event loop turn between pages', async () => {
    // Newest first, as the store pages them: createdAt descending, paged by `before`.
    const fences = Array.from({ length: 3500 }, (_, i) =>
      makeCircleGeofence(tenant, { id: `g${i}`, externalId: `e${i}`, createdAt: 10_000 - i }),
    );
    const pages: number[] = [];
    const source: GeofenceSource = {
      async list(_t, query) {
        const from = query.before === undefined ? fences : fences.filter((g) => g.createdAt < query.before!);
        pages.push(from.length);
        return { items: from.slice(0, query.limit), hasMore: from.length > query.limit };
      },
      async get() {
        return null;
      },
    };
    let turns = 0;
    let loaded = false;
    const tick = () => {
      turns++;
      if (!loaded) setImmediate(tick);
    };
    setImmediate(tick);
    const index = await new GeofenceIndexRegistry(source).get(tenant);
    loaded = true;
    assert.equal(index.size, 3500);
    assert.deepEqual(pages, [3500, 2500, 1500, 500]);
    assert.ok(turns >= 3, `${turns} turns of the event loop during the load`);
  });

  it('finds a fence by tag and externalId through loads, upserts, retags and deletes', async () => {
    const fences = [makeCircleGeofence(tenant, { id: 'g1', externalId: 'a' })];
    const registry = new GeofenceIndexRegistry(countingSource(fences));
    assert.equal((await registry.byTag(tenant, 'store', 'a'))?.id, 'g1', 'from the load');
    assert.equal(await registry.byTag(tenant, 'store', 'b'), null);
    const moved = makeCircleGeofence(tenant, { id: 'g1', externalId: 'a', geometryCenter: [-74, 40.8] });
    registry.apply(tenant, { upserted: moved });
    assert.deepEqual(
      (await registry.byTag(tenant, 'store', 'a'))?.geometryCenter,
      [-74, 40.8],
      'an upsert replaces it',
    );
    registry.apply(tenant, { upserted: makeCircleGeofence(tenant, { id: 'g1', externalId: 'c' }) });
    assert.equal(await registry.byTag(tenant, 'store', 'a'), null, 'a new externalId frees the old one');
    assert.equal((await registry.byTag(tenant, 'store', 'c'))?.id, 'g1');
    registry.apply(tenant, { deletedId: 'g1' });
    assert.equal(await registry.byTag(tenant, 'store', 'c'), null, 'gone once deleted');
    registry.apply(tenant, { upserted: makeCircleGeofence(tenant, { id: 'g2', externalId: 'c' }) });
    assert.equal((await registry.byTag(tenant, 'store', 'c'))?.id, 'g2', 'a new fence under a freed tag');
  });
});
