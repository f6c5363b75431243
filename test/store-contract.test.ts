import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../src/domain/ports/store.js';
import type { Tenant } from '../src/domain/tenant.js';
import type { Trip } from '../src/domain/trips/trip.js';
import type { User } from '../src/domain/users/user.js';
import { PostgresStore } from '../src/storage/postgres/postgres-store.js';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { engineEnv } from './helpers/engine.js';
import { makeCircleGeofence, makeEvent, makeTrip, makeUser } from './helpers/fixtures.js';

/**
 * The Store ports themselves, on the engine this run uses (SQLite, or PostgreSQL under
 * TEST_STORE=postgres): what the HTTP suite relies on, checked below the HTTP layer.
 */
describe(`store contract (${process.env.TEST_STORE === 'postgres' ? 'PostgreSQL' : 'SQLite'})`, () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  const tenant: Tenant = { projectId: 'contract', live: false };
  const other: Tenant = { projectId: 'contract', live: true };

  before(async () => {
    const engine = await engineEnv();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-contract-'));
    if (engine.env.DATABASE_URL) {
      // Opening twice runs the migrations twice: the second finds them applied.
      await (await PostgresStore.open(engine.env.DATABASE_URL)).close();
      store = await PostgresStore.open(engine.env.DATABASE_URL);
    } else store = SqliteStore.open(dir);
    cleanup = async () => {
      await store.close();
      await engine.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  });
  after(() => cleanup?.());

  const user = (id: string, over: Partial<User> = {}): User =>
    makeUser(tenant, {
      id,
      deviceId: `dev-${id}`,
      location: [-73.99, 40.7],
      deviceType: 'iOS',
      createdAt: 1000,
      updatedAt: 1000,
      ...over,
    });
  const tripAt = (id: string, updatedAt: number): Trip =>
    makeTrip(tenant, { id, userPk: id, deviceId: `dev-${id}`, updatedAt });
  const event = makeEvent;

  it('users: get by _id, userId, deviceId, in the tenant only', async () => {
    await store.users.save(user('u1', { userId: 'app-1', metadata: { quote: "it's \\ here" } }));
    for (const key of ['u1', 'app-1', 'dev-u1']) assert.equal((await store.users.get(tenant, key))?.id, 'u1', key);
    assert.deepEqual((await store.users.get(tenant, 'u1'))?.metadata, { quote: "it's \\ here" });
    assert.equal(await store.users.get(other, 'u1'), null);
  });

  it('trackUpdate writes the user and its events in one transaction, and nothing when compute throws', async () => {
    const identity = { userId: null, deviceId: 'dev-t1' };
    const made = await store.users.trackUpdate(tenant, identity, async (found) => {
      assert.deepEqual(found, { byUserId: null, byDeviceId: null });
      const u = user('t1', { deviceId: 'dev-t1', updatedAt: 2000 });
      return { user: u, events: [event(u, 'e1'), event(u, 'e2')], result: u.id };
    });
    assert.equal(made, 't1');
    const page = await store.events.list(tenant, { limit: 10 });
    assert.deepEqual(page.items.map((e) => e.id).sort(), ['e1', 'e2']);
    await assert.rejects(
      store.users.trackUpdate(tenant, identity, async (found) => {
        assert.equal(found.byDeviceId?.id, 't1');
        throw new Error('compute failed');
      }),
      /compute failed/,
    );
    assert.equal((await store.users.get(tenant, 't1'))?.updatedAt, 2000);
  });

  it('trackUpdate replaces memberships (left, kept with the new updatedAt, entered) and finds candidates by userId first', async () => {
    const identity = { userId: 'app-m1', deviceId: 'dev-m1' };
    const member = (id: string, at: number) => ({ geofenceId: id, enteredAt: at, dwelled: false });
    const track = (at: number, fences: string[], check: (found: unknown) => void) =>
      store.users.trackUpdate(tenant, identity, async (found) => {
        check(found);
        const u = user('m1', { ...identity, updatedAt: at, geofences: fences.map((f) => member(f, at)) });
        return { user: u, events: [event(u, `m1-${at}`)], result: null };
      });
    await store.users.save(user('m0', { deviceId: 'dev-m1', updatedAt: 500 }));
    await track(3000, ['fa', 'fb'], (found) =>
      assert.deepEqual(found, { byUserId: null, byDeviceId: user('m0', { deviceId: 'dev-m1', updatedAt: 500 }) }),
    );
    await track(4000, ['fb', 'fc'], (found) => {
      const f = found as { byUserId: User | null; byDeviceId: User | null };
      assert.equal(f.byUserId?.id, 'm1');
      assert.equal(f.byDeviceId, null);
    });
    const inFence = async (id: string) =>
      (await store.users.listInGeofence(tenant, id, { limit: 10 })).items.map((u) => [u.id, u.updatedAt]);
    assert.deepEqual(await inFence('fa'), []);
    assert.deepEqual(await inFence('fb'), [['m1', 4000]]);
    assert.deepEqual(await inFence('fc'), [['m1', 4000]]);
    const events = await store.events.list(tenant, { limit: 10, userId: 'app-m1' });
    assert.deepEqual(events.items.map((e) => e.id).sort(), ['m1-3000', 'm1-4000']);
  });

  it('geofences: upsert by tag + externalId keeps _id and createdAt, replaces an expired holder; delete removes it', async () => {
    const now = 1_700_000_000_000;
    const base = makeCircleGeofence(tenant, { id: 'g1' });
    const first = (await store.geofences.upsert(base, now)).geofence;
    const second = await store.geofences.upsert({ ...base, id: 'g2', createdAt: 5, description: 'two' }, now);
    assert.equal(second.geofence.id, first.id);
    assert.equal(second.geofence.createdAt, 1);
    assert.equal(second.replacedId, null);
    assert.equal((await store.geofences.get(tenant, first.id))?.description, 'two');
    assert.equal((await store.geofences.all(tenant)).length, 1);
    // Past its deleteAfter at the next upsert's `now`: that upsert starts a new fence.
    await store.geofences.upsert({ ...base, deleteAfter: now + 10 }, now);
    const kept = await store.geofences.upsert({ ...base, id: 'g3', createdAt: 7 }, now + 9);
    assert.deepEqual([kept.geofence.id, kept.replacedId], [first.id, null]);
    await store.geofences.upsert({ ...base, deleteAfter: now + 10 }, now + 9);
    const fresh = await store.geofences.upsert({ ...base, id: 'g4', createdAt: 8, description: 'four' }, now + 10);
    assert.deepEqual([fresh.geofence.id, fresh.geofence.createdAt, fresh.replacedId], ['g4', 8, first.id]);
    assert.equal(await store.geofences.get(tenant, first.id), null);
    assert.equal((await store.geofences.get(tenant, 'g4'))?.description, 'four');
    assert.equal(await store.geofences.delete(tenant, 'g4'), true);
    assert.equal(await store.geofences.get(tenant, 'g4'), null);
  });

  it('trips: exclusive runs holders of one trip one at a time', async () => {
    const { trips } = store;
    const exclusive = trips.exclusive.bind(trips);
    const order: string[] = [];
    const hold = (name: string, ms: number) =>
      exclusive(tenant, 'trip-x', async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`${name}-`);
      });
    await Promise.all([hold('a', 100), hold('b', 10), exclusive(tenant, 'trip-y', async () => order.push('y'))]);
    const x = order.filter((o) => o !== 'y');
    assert.ok(
      JSON.stringify(x) === '["a+","a-","b+","b-"]' || JSON.stringify(x) === '["b+","b-","a+","a-"]',
      x.join(' '),
    );
  });

  it("trips: a write given a track's unit commits with the track's user, or not at all", async () => {
    const trip = tripAt('tu1', 1000);
    await store.trips.save(trip);
    const identity = { userId: null, deviceId: 'dev-tu1' };
    const moved = { ...tripAt('tu1', 3000), eta: { distance: 900, duration: 2 } };
    const point = { location: { coordinates: [-73.98, 40.71] as [number, number], updatedAt: 3000 } };
    const track = (fail: boolean) =>
      store.users.trackUpdate(tenant, identity, async (_found, unit) => {
        await store.trips.save(moved, point, unit);
        if (fail) throw new Error('compute failed');
        return { user: user('tu1', { deviceId: 'dev-tu1', updatedAt: 3000 }), events: [], result: null };
      });
    await assert.rejects(track(true), /compute failed/);
    assert.equal((await store.trips.get(tenant, 'tu1'))?.updatedAt, 1000);
    assert.deepEqual((await store.trips.locations(tenant, ['tu1'])).get('tu1'), []);
    await track(false);
    assert.deepEqual((await store.trips.get(tenant, 'tu1'))?.eta, { distance: 900, duration: 2 });
    assert.deepEqual(
      (await store.trips.locations(tenant, ['tu1'])).get('tu1')?.map((l) => l.updatedAt),
      [3000],
    );
    assert.equal((await store.users.get(tenant, 'tu1'))?.updatedAt, 3000);
  });

  it("trips: a lock taken with a track's unit is held until the track has committed", async () => {
    const { trips } = store;
    const exclusive = trips.exclusive.bind(trips);
    await trips.save(tripAt('tl1', 1000));
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => {
      locked = r;
    });
    const tracked = store.users.trackUpdate(tenant, { userId: null, deviceId: 'dev-tl1' }, async (_found, unit) =>
      exclusive(
        tenant,
        'ext-tl1',
        async () => {
          await trips.save(tripAt('tl1', 5000), {}, unit);
          locked();
          // Long enough for the other holder to run first if the lock were let go with `fn`.
          await new Promise((r) => setTimeout(r, 50));
          return { user: user('tl1', { deviceId: 'dev-tl1', updatedAt: 5000 }), events: [], result: null };
        },
        unit,
      ),
    );
    await lockTaken;
    // A PATCH of the trip waits for the lock: it must find the track's write committed.
    const seen = exclusive(tenant, 'ext-tl1', async () => (await trips.get(tenant, 'tl1'))?.updatedAt);
    await tracked;
    assert.equal(await seen, 5000);
  });

  it('users near a point, when the engine answers it, nearest first within the radius', async () => {
    const { users } = store;
    if (!users.near) return; // SQLite: user search uses the in-memory index
    await users.save(user('n1', { location: [-74.1, 40.8] }));
    await users.save(user('n2', { location: [-74.1005, 40.8] }));
    await users.save(user('n3', { location: [-74.2, 40.8] }));
    const found = await users.near(tenant, [-74.1, 40.8], 100, 10, 0);
    assert.deepEqual(
      found.map((u) => u.id),
      ['n1', 'n2'],
    );
    assert.deepEqual(
      (await users.near(tenant, [-74.1, 40.8], 100, 1, 1)).map((u) => u.id),
      ['n2'],
    );
  });
});
