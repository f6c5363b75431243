import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence, makeUser } from '../../../test/helpers/fixtures.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };
const NOW = 1_700_000_000_000;

describe('SqliteGeofenceStore.upsert', () => {
  const withStore = (fn: (store: SqliteStore) => Promise<void>) => withSqliteStore(fn);

  it('given a new id for a stored tag, keeps the stored id and createdAt', async () => {
    await withStore(async (store) => {
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-first', createdAt: 10, updatedAt: 10 }), NOW);
      const { geofence: saved, replacedId } = await store.geofences.upsert(
        makeCircleGeofence(tenant, { id: 'g-second', description: 'two', createdAt: 20, updatedAt: 20 }),
        NOW,
      );
      assert.equal(saved.id, 'g-first');
      assert.equal(saved.createdAt, 10);
      assert.equal(replacedId, null);
      const stored = await store.geofences.get(tenant, 'g-first');
      assert.equal(stored?.description, 'two');
      assert.equal(stored?.id, 'g-first');
      assert.equal(stored?.createdAt, 10);
      assert.equal(await store.geofences.get(tenant, 'g-second'), null);
    });
  });

  it('concurrent upserts of one new tag leave one fence, the last write winning', async () => {
    await withStore(async (store) => {
      const saved = await Promise.all(
        ['a', 'b', 'c'].map((d) =>
          store.geofences.upsert(makeCircleGeofence(tenant, { id: `g-${d}`, description: d, createdAt: 5 }), NOW),
        ),
      );
      assert.deepEqual(
        saved.map((s) => s.geofence.id),
        ['g-a', 'g-a', 'g-a'],
      );
      const all = await store.geofences.all(tenant);
      assert.equal(all.length, 1);
      assert.equal(all[0]!.description, 'c');
    });
  });

  it('a fence past its deleteAfter is replaced, not brought back, and its memberships go with it', async () => {
    await withStore(async (store) => {
      const old = makeCircleGeofence(tenant, { id: 'g-old', createdAt: 10, deleteAfter: NOW - 1 });
      await store.geofences.upsert(old, NOW - 1000);
      const inOld = { geofenceId: 'g-old', enteredAt: 1, dwelled: false };
      await store.users.save(makeUser(tenant, { id: 'u-1', userId: 'one', updatedAt: 1, geofences: [inOld] }));
      const { geofence, replacedId } = await store.geofences.upsert(
        makeCircleGeofence(tenant, { id: 'g-new', createdAt: NOW, description: 'new' }),
        NOW,
      );
      assert.equal(geofence.id, 'g-new');
      assert.equal(geofence.createdAt, NOW);
      assert.equal(replacedId, 'g-old');
      assert.equal(await store.geofences.get(tenant, 'g-old'), null);
      assert.equal((await store.geofences.get(tenant, 'g-new'))?.description, 'new');
      const memberships = store.db.prepare("SELECT count(*) FROM user_geofences WHERE geofence_id = 'g-old'");
      assert.equal(memberships.pluck().get(), 0);
    });
  });

  it('a fence whose deleteAfter is still ahead keeps its id', async () => {
    await withStore(async (store) => {
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-old', deleteAfter: NOW + 1 }), NOW);
      const { geofence, replacedId } = await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-new' }), NOW);
      assert.equal(geofence.id, 'g-old');
      assert.equal(replacedId, null);
    });
  });

  it('a fence without a tag is upserted by id', async () => {
    await withStore(async (store) => {
      const untagged = { tag: null, externalId: null };
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-1', ...untagged, description: 'x' }), NOW);
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-2', ...untagged, description: 'y' }), NOW);
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-1', ...untagged, description: 'z' }), NOW);
      const all = await store.geofences.all(tenant);
      assert.deepEqual(all.map((g) => `${g.id}:${g.description}`).sort(), ['g-1:z', 'g-2:y']);
    });
  });
});
