import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { Trip } from '../../domain/trips/trip.js';
import { startedTrip, withStatus } from '../../domain/trips/trip-lifecycle.js';

const tenant = { projectId: 'p1', live: false };
const owner = { userPk: 'u1', userId: null, deviceId: 'd1' };

describe('SqliteTripStore', () => {
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

  it('leaves out a completed trip (still stored) and finds the next one', async () => {
    await withSqliteStore(async (store) => {
      const first = startedTrip(tenant, owner, { externalId: 'first' }, 1000);
      await store.trips.save(first);
      assert.equal((await store.trips.activeFor(tenant, owner))?.id, first.id);
      await store.trips.save(withStatus(first, 'completed', 2000).trip);
      assert.equal(await store.trips.activeFor(tenant, owner), null);
      assert.equal((await store.trips.get(tenant, first.id))?.status, 'completed');
      const next = startedTrip(tenant, owner, { externalId: 'next' }, 3000);
      await store.trips.save(next);
      assert.equal((await store.trips.activeFor(tenant, owner))?.id, next.id);
      assert.equal((await store.trips.get(tenant, 'next'))?.id, next.id, 'get by externalId');
    });
  });

  it('finds the own trip, then waiting by userId, then by deviceId, newest first', async () => {
    await withSqliteStore(async (store) => {
      const me = { userPk: 'u9', userId: 'alice', deviceId: 'd9' };
      const answers = async () => (await store.trips.activeFor(tenant, me))?.externalId ?? null;
      const trips: Trip[] = [];
      const save = async (trip: Trip) => {
        trips.push(trip);
        await store.trips.save(trip);
      };
      assert.equal(await store.trips.activeFor(tenant, me), null);
      await save(startedTrip(tenant, { userPk: null, userId: null, deviceId: 'd9' }, { externalId: 'device' }, 1000));
      assert.equal(await answers(), 'device');
      await save(startedTrip(tenant, { userPk: null, userId: 'alice', deviceId: null }, { externalId: 'userId' }, 900));
      assert.equal(await answers(), 'userId');
      await save(startedTrip(tenant, { userPk: 'u9', userId: 'alice', deviceId: 'd9' }, { externalId: 'own' }, 800));
      assert.equal(await answers(), 'own');
      await save(startedTrip(tenant, { userPk: 'u9', userId: 'alice', deviceId: 'd9' }, { externalId: 'own2' }, 1200));
      assert.equal(await answers(), 'own2', 'the newest of the own');
      await save(withStatus(trips[3]!, 'canceled', 1300).trip);
      assert.equal(await answers(), 'own');
      // The waiting trip claimed by another user is no longer alice's.
      await save({ ...trips[1]!, userPk: 'u10' });
      await save(withStatus(trips[2]!, 'completed', 1400).trip);
      assert.equal(await answers(), 'device');
    });
  });

  it('leaves out trips expired by expireStale', async () => {
    await withSqliteStore(async (store) => {
      const old = startedTrip(tenant, owner, { externalId: 'old' }, 1000);
      const other = { userPk: 'u2', userId: null, deviceId: 'd2' };
      const recent = startedTrip(tenant, other, { externalId: 'recent' }, 5000);
      await store.trips.save(old);
      await store.trips.save(recent);
      assert.equal((await store.trips.activeFor(tenant, owner))?.id, old.id);
      assert.equal(await store.trips.expireStale(tenant, 1000), 1);
      assert.equal(await store.trips.activeFor(tenant, owner), null);
      assert.equal((await store.trips.get(tenant, old.id))?.status, 'expired');
      assert.equal((await store.trips.activeFor(tenant, other))?.id, recent.id);
    });
  });

  it('keeps the columns in step with the document on every save', async () => {
    await withSqliteStore(async (store) => {
      const trip = startedTrip(tenant, { userPk: null, userId: 'alice', deviceId: null }, { externalId: 'cols' }, 1000);
      await store.trips.save(trip);
      assert.equal(
        (await store.trips.activeFor(tenant, { userPk: null, userId: 'alice', deviceId: null }))?.id,
        trip.id,
      );
      const row = () =>
        store.db
          .prepare(
            'SELECT user_pk, status, active, eta_duration, updated_at, destination_tag, doc FROM trips WHERE id = ?',
          )
          .get(trip.id) as Record<string, unknown>;
      const claimed: Trip = { ...trip, userPk: 'u1', eta: { distance: 900, duration: 4.5 }, updatedAt: 2000 };
      await store.trips.save(claimed);
      assert.deepEqual(
        { ...row(), doc: undefined },
        {
          user_pk: 'u1',
          status: 'started',
          active: 1,
          eta_duration: 4.5,
          updated_at: 2000,
          destination_tag: null,
          doc: undefined,
        },
      );
      const arrived: Trip = {
        ...claimed,
        status: 'arrived',
        destinationGeofenceTag: 'store',
        eta: null,
        updatedAt: 3000,
      };
      await store.trips.save(arrived);
      assert.deepEqual(JSON.parse(row().doc as string), arrived);
      assert.deepEqual(
        { ...row(), doc: undefined },
        {
          user_pk: 'u1',
          status: 'arrived',
          active: 1,
          eta_duration: null,
          updated_at: 3000,
          destination_tag: 'store',
          doc: undefined,
        },
      );
      await store.trips.save(withStatus(arrived, 'completed', 4000).trip);
      assert.deepEqual([row().status, row().active], ['completed', 0]);
    });
  });
});
