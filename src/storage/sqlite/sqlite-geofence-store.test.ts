import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };

for (const writerThread of [true, false]) {
  describe(`SqliteGeofenceStore.upsert (${writerThread ? 'writer thread' : 'group commit on the event loop'})`, () => {
    const withStore = (fn: (store: SqliteStore) => Promise<void>) => withSqliteStore(fn, { writerThread });

    it('given a new id for a stored tag, keeps the stored id and createdAt', async () => {
      await withStore(async (store) => {
        await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-first', createdAt: 10, updatedAt: 10 }));
        const saved = await store.geofences.upsert(
          makeCircleGeofence(tenant, { id: 'g-second', description: 'two', createdAt: 20, updatedAt: 20 }),
        );
        assert.equal(saved.id, 'g-first');
        assert.equal(saved.createdAt, 10);
        const stored = await store.geofences.get(tenant, 'g-first');
        assert.equal(stored?.description, 'two');
        assert.equal(stored?.id, 'g-first');
        assert.equal(await store.geofences.get(tenant, 'g-second'), null);
      });
    });

    it('concurrent upserts of one new tag leave one fence, the last write winning', async () => {
      await withStore(async (store) => {
        const saved = await Promise.all(
          ['a', 'b', 'c'].map((d) =>
            store.geofences.upsert(makeCircleGeofence(tenant, { id: `g-${d}`, description: d, createdAt: 5 })),
          ),
        );
        assert.equal(new Set(saved.map((g) => g.id)).size, 1);
        const all = await store.geofences.all(tenant);
        assert.equal(all.length, 1);
        assert.equal(all[0]!.description, 'c');
      });
    });

    it('a fence without a tag is upserted by id', async () => {
      await withStore(async (store) => {
        const untagged = { tag: null, externalId: null };
        await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-1', ...untagged, description: 'x' }));
        await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-2', ...untagged, description: 'y' }));
        await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-1', ...untagged, description: 'z' }));
        const all = await store.geofences.all(tenant);
        assert.deepEqual(all.map((g) => `${g.id}:${g.description}`).sort(), ['g-1:z', 'g-2:y']);
      });
    });
  });
}
