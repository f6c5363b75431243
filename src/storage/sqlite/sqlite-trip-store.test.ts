import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import { startedTrip } from '../../domain/trips/trip-lifecycle.js';
import { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };
const owner = { userPk: 'u1', userId: null, deviceId: 'd1' };

describe('SqliteTripStore.activeFor of a tenant without active trips', () => {
  it("finds a trip saved after a read that found none, and another tenant's trip only there", async () => {
    await withSqliteStore(async (store) => {
      assert.equal(await store.trips.activeFor(tenant, owner), null);
      assert.equal(await store.trips.activeFor(tenant, owner), null, 'still none');
      const trip = startedTrip(tenant, owner, { externalId: 't1' }, 1000);
      await store.trips.save(trip);
      assert.equal((await store.trips.activeFor(tenant, owner))?.id, trip.id);
      const other = { projectId: 'p2', live: false };
      assert.equal(await store.trips.activeFor(other, owner), null);
      await store.trips.save(startedTrip(other, owner, { externalId: 't2' }, 1000));
      assert.equal((await store.trips.activeFor(other, owner))?.externalId, 't2');
    });
  });

  it("finds a trip another process started, once the store's change poll has seen its commit", async () => {
    await withSqliteStore(async (store, dir) => {
      const unfollow = store.onExternalChange(() => {});
      assert.equal(await store.trips.activeFor(tenant, owner), null);
      const other = SqliteStore.open(dir);
      try {
        await other.trips.save(startedTrip(tenant, owner, { externalId: 'elsewhere' }, 1000));
      } finally {
        await other.close();
      }
      store.syncExternalChanges();
      assert.equal((await store.trips.activeFor(tenant, owner))?.externalId, 'elsewhere');
      unfollow();
    });
  });
});
