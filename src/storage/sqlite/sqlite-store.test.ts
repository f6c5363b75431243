import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence, makeUser } from '../../../test/helpers/fixtures.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { StoreChange } from '../../domain/ports/store.js';
import { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };

describe("SqliteStore's external changes", () => {
  it("are told after another connection's commit (the CLI), not after the store's own", async () => {
    await withSqliteStore(async (store, dir) => {
      const seen: StoreChange[] = [];
      const unfollow = store.onExternalChange((change) => seen.push(change));
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'mine' }), 0);
      await store.users.save(makeUser(tenant, { id: 'u1', updatedAt: 1 }));
      store.syncExternalChanges();
      assert.deepEqual(seen, [], 'its own commits are not news');
      const cli = SqliteStore.open(dir);
      try {
        await cli.geofences.upsert(makeCircleGeofence(tenant, { id: 'theirs', externalId: 'other' }), 0);
      } finally {
        await cli.close();
      }
      store.syncExternalChanges();
      assert.deepEqual(seen, [{ kind: 'unknown' }]);
      store.syncExternalChanges();
      assert.equal(seen.length, 1, 'told once per commit seen');
      unfollow();
    });
  });

  it('are found by the timer without anyone asking', async () => {
    await withSqliteStore(async (store, dir) => {
      const told = new Promise<StoreChange>((resolve) => store.onExternalChange(resolve));
      const cli = SqliteStore.open(dir);
      try {
        await cli.geofences.upsert(makeCircleGeofence(tenant, { id: 'theirs' }), 0);
      } finally {
        await cli.close();
      }
      // The store's timer does not hold the process up; this test's does, until the change is told.
      const keepAlive = setTimeout(() => {}, 5000);
      assert.deepEqual(await told, { kind: 'unknown' });
      clearTimeout(keepAlive);
    });
  });

  it("rebuild who is in each fence once another connection's commit is seen", async () => {
    await withSqliteStore(async (store, dir) => {
      const unfollow = store.onExternalChange(() => {});
      const inG = [{ geofenceId: 'g', enteredAt: 1, dwelled: false }];
      const page = { limit: 10 };
      await store.users.save(makeUser(tenant, { id: 'u1', updatedAt: 1, geofences: inG }));
      assert.deepEqual(
        (await store.users.listInGeofence(tenant, 'g', page)).items.map((u) => u.id),
        ['u1'],
      );
      const cli = SqliteStore.open(dir);
      try {
        await cli.users.save(makeUser(tenant, { id: 'u2', deviceId: 'd2', updatedAt: 2, geofences: inG }));
      } finally {
        await cli.close();
      }
      store.syncExternalChanges();
      assert.deepEqual(
        (await store.users.listInGeofence(tenant, 'g', page)).items.map((u) => u.id),
        ['u2', 'u1'],
      );
      unfollow();
    });
  });
});
