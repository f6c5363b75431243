import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import type { Geofence } from '../geofences/geofence.js';
import { GeofenceIndexRegistry, type GeofenceSource } from './geofence-index-registry.js';

const tenant = { projectId: 'p1', live: false };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An in-memory fence source that counts the loads (first pages) and the single reads made of it;
 * each single read takes at least `readMicros` of CPU, as a store's would.
 */
function countingSource(fences: Geofence[], readMicros = 0): GeofenceSource & { loads: number; reads: number } {
  const source = {
    loads: 0,
    reads: 0,
    async list(_t: unknown, query: { before?: number }) {
      if (query.before === undefined) source.loads++;
      return { items: [...fences], hasMore: false };
    },
    async get(_t: unknown, id: string) {
      source.reads++;
      const until = performance.now() + readMicros / 1000;
      while (performance.now() < until);
      return fences.find((g) => g.id === id) ?? null;
    },
  };
  return source;
}

/** Counts the event loop's turns until `stop()`. */
function turnCounter(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { turns: () => turns, stop: () => (running = false) };
}

const fencesNamed = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => makeCircleGeofence(tenant, { id: `${prefix}${i}`, externalId: `${prefix}${i}` }));

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

  it('finds a fence by tag and externalId through a move to another tag, a reload and a taken key', async () => {
    const fences = [
      makeCircleGeofence(tenant, { id: 'g1', externalId: 'a' }),
      makeCircleGeofence(tenant, { id: 'g2', externalId: 'b' }),
    ];
    const source = countingSource(fences);
    const registry = new GeofenceIndexRegistry(source);
    assert.equal((await registry.byTag(tenant, 'store', 'a'))?.id, 'g1');
    registry.apply(tenant, { upserted: makeCircleGeofence(tenant, { id: 'g1', tag: 'venue', externalId: 'a' }) });
    assert.equal(await registry.byTag(tenant, 'store', 'a'), null, 'a new tag frees the old one');
    assert.equal((await registry.byTag(tenant, 'venue', 'a'))?.id, 'g1');
    // Another fence takes a key before the one holding it is deleted: the delete leaves it to the other.
    registry.apply(tenant, { upserted: makeCircleGeofence(tenant, { id: 'g3', externalId: 'b' }) });
    registry.apply(tenant, { deletedId: 'g2' });
    assert.equal((await registry.byTag(tenant, 'store', 'b'))?.id, 'g3');
    // Another process moved g1 to another externalId and deleted g3: a reload reads the store as it is.
    fences.splice(0, 2, makeCircleGeofence(tenant, { id: 'g1', tag: 'venue', externalId: 'z' }));
    registry.storeChanged({ kind: 'unknown' });
    await sleep(600);
    assert.equal(source.loads, 2, 'reloaded');
    assert.equal(await registry.byTag(tenant, 'venue', 'a'), null);
    assert.equal(await registry.byTag(tenant, 'store', 'b'), null);
    assert.equal((await registry.byTag(tenant, 'venue', 'z'))?.id, 'g1');
  });

  it("applies another process's burst of one-fence writes a few milliseconds per turn of the event loop", async () => {
    const fences = fencesNamed('old', 3000);
    const source = countingSource(fences, 50);
    const registry = new GeofenceIndexRegistry(source);
    await registry.get(tenant);
    // One commit of 1,200 fences, reported fence by fence: fewer than half the index holds.
    const written = fencesNamed('new', 1200);
    fences.push(...written);
    const counter = turnCounter();
    for (const g of written) registry.storeChanged({ kind: 'geofences', tenant, id: g.id });
    while (source.reads < written.length) await sleep(5);
    counter.stop();
    const index = await registry.get(tenant);
    assert.equal(index.size, 4200, 'every written fence is indexed');
    assert.equal(source.loads, 1, 'read back one by one, not reloaded');
    // 1,200 reads of 50 µs: 60 ms of work, in slices of about 4 ms.
    assert.ok(counter.turns() >= 8, `${counter.turns()} turns of the event loop during the refresh`);
  });

  it('reads a fence named by several changes once, as it stands then', async () => {
    const fences = fencesNamed('g', 10);
    const source = countingSource(fences);
    const registry = new GeofenceIndexRegistry(source);
    await registry.get(tenant);
    fences.push(makeCircleGeofence(tenant, { id: 'brief', externalId: 'brief' }));
    registry.storeChanged({ kind: 'geofences', tenant, id: 'g3' });
    registry.storeChanged({ kind: 'geofences', tenant, id: 'brief' });
    registry.storeChanged({ kind: 'geofences', tenant, id: 'brief' });
    // Deleted again before the reads: the index never holds it.
    fences.pop();
    await sleep(20);
    assert.equal(source.reads, 2);
    assert.equal((await registry.get(tenant)).get('brief'), undefined);
    assert.ok((await registry.get(tenant)).get('g3'));
  });

  it('reloads instead when more fences wait to be read back than half the index holds', async () => {
    const fences = fencesNamed('old', 10);
    const source = countingSource(fences);
    const registry = new GeofenceIndexRegistry(source);
    await registry.get(tenant);
    const written = fencesNamed('new', 1100);
    fences.push(...written);
    for (const g of written) registry.storeChanged({ kind: 'geofences', tenant, id: g.id });
    await sleep(600);
    assert.equal(source.loads, 2, 'one reload');
    assert.ok(source.reads <= 1, `${source.reads} fences read back one by one`);
    assert.equal((await registry.get(tenant)).size, 1110);
  });

  it('tries a failed reload again, so that the writes it was to read still arrive', async () => {
    const fences = fencesNamed('old', 10);
    const source = countingSource(fences);
    const registry = new GeofenceIndexRegistry(source);
    await registry.get(tenant);
    const list = source.list;
    let failures = 1;
    source.list = async (t, query) => {
      if (failures > 0) {
        failures--;
        throw new Error('database unavailable');
      }
      return list(t, query);
    };
    fences.push(makeCircleGeofence(tenant, { id: 'later', externalId: 'later' }));
    registry.storeChanged({ kind: 'unknown' });
    // Named while the reload is scheduled: left to the reload, which fails once.
    registry.storeChanged({ kind: 'geofences', tenant, id: 'later' });
    await sleep(1000);
    assert.equal(failures, 0, 'the reload failed once');
    assert.ok((await registry.get(tenant)).get('later'), 'the retry brought the write in');
  });
});
