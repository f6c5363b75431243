import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence, makeUser } from '../../../test/helpers/fixtures.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { User } from '../../domain/users/user.js';
import { FenceMembers } from './fence-members.js';
import type { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };

/** The user's row: its id columns and its document. */
function row(store: SqliteStore, id: string) {
  return store.db.prepare('SELECT user_id, device_id, updated_at, doc FROM users WHERE id = ?').get(id) as {
    user_id: string | null;
    device_id: string | null;
    updated_at: number;
    doc: string;
  };
}

/** The row holds `user` whole: its ids and time in their columns, and its document. */
function assertRowIs(store: SqliteStore, user: User) {
  assert.deepEqual(row(store, user.id), {
    user_id: user.userId,
    device_id: user.deviceId,
    updated_at: user.updatedAt,
    doc: JSON.stringify(user),
  });
}

/** A track's write of `user`, as found `read` (what the track saw of it). */
function track(store: SqliteStore, read: User | null, user: User) {
  return store.users.trackUpdate(
    tenant,
    { userId: user.userId, deviceId: user.deviceId! },
    async () => ({ user, events: [], result: undefined }),
    { byUserId: null, byDeviceId: read },
  );
}

describe("SqliteUserStore's track writes", () => {
  it("update a known user's time and document, and keep its ids", async () => {
    await withSqliteStore(async (store) => {
      const first = makeUser(tenant, { id: 'u1', updatedAt: 1000, userId: 'alice', deviceId: 'd1' });
      await track(store, null, first);
      const moved = { ...first, updatedAt: 2000, description: 'moved' };
      await track(store, first, moved);
      assertRowIs(store, moved);
      const renamed = { ...moved, updatedAt: 3000, deviceId: 'd2' };
      await track(store, moved, renamed);
      assert.equal(row(store, 'u1').device_id, 'd2', 'a changed id is written');
    });
  });

  it('write every column when the row changed since the track read it, or was deleted', async () => {
    await withSqliteStore(async (store) => {
      const read = makeUser(tenant, { id: 'u1', updatedAt: 1000, userId: 'alice', deviceId: 'd1' });
      await track(store, null, read);
      // Another writer gives the user another device meanwhile; the track, which read d1, then lands.
      await store.users.save({ ...read, deviceId: 'elsewhere', updatedAt: 1500 });
      const tracked = { ...read, updatedAt: 2000 };
      await track(store, read, tracked);
      assertRowIs(store, tracked);
      await store.users.delete(tenant, 'u1');
      const again = { ...tracked, updatedAt: 3000 };
      await track(store, tracked, again);
      assert.equal(row(store, 'u1').updated_at, 3000, 'written again, as the upsert always did');
    });
  });
});

describe("SqliteUserStore's users in a fence (FenceMembers)", () => {
  const inFences = (...ids: string[]) => ids.map((geofenceId) => ({ geofenceId, enteredAt: 1, dwelled: false }));
  const listed = async (store: SqliteStore, fence: string, limit = 100, before?: number) =>
    (await store.users.listInGeofence(tenant, fence, { limit, ...(before === undefined ? {} : { before }) })).items.map(
      (u) => u.id,
    );

  it('follow tracks in and out of fences, newest first, with no time kept in the membership rows', async () => {
    await withSqliteStore(async (store) => {
      const a = makeUser(tenant, { id: 'ua', deviceId: 'da', updatedAt: 1000, geofences: inFences('g1') });
      const b = makeUser(tenant, { id: 'ub', deviceId: 'db', updatedAt: 1100, geofences: inFences('g1', 'g2') });
      await track(store, null, a);
      await track(store, null, b);
      assert.deepEqual(await listed(store, 'g1'), ['ub', 'ua']);
      const aLater = { ...a, updatedAt: 1200 };
      await track(store, a, aLater);
      assert.deepEqual(await listed(store, 'g1'), ['ua', 'ub'], 'a track of a member moves it to the front');
      const bOut = { ...b, updatedAt: 1300, geofences: inFences('g2') };
      await track(store, b, bOut);
      assert.deepEqual(await listed(store, 'g1'), ['ua']);
      assert.deepEqual(await listed(store, 'g2'), ['ub']);
      assert.deepEqual(store.db.prepare('SELECT user_pk, geofence_id FROM user_geofences ORDER BY 1, 2').raw().all(), [
        ['ua', 'g1'],
        ['ub', 'g2'],
      ]);
      await store.users.delete(tenant, 'ua');
      assert.deepEqual(await listed(store, 'g1'), []);
    });
  });

  it('page by time without splitting a run of equal times', async () => {
    await withSqliteStore(async (store) => {
      for (const [id, t] of [
        ['u1', 10],
        ['u2', 20],
        ['u3', 20],
        ['u4', 30],
      ] as const) {
        await track(store, null, makeUser(tenant, { id, deviceId: id, updatedAt: t, geofences: inFences('g') }));
      }
      const first = await store.users.listInGeofence(tenant, 'g', { limit: 2 });
      assert.deepEqual(
        first.items.map((u) => u.id),
        ['u4'],
        'u2 and u3 share a time: the page ends before them',
      );
      assert.equal(first.hasMore, true);
      assert.deepEqual(await listed(store, 'g', 2, 30), ['u3', 'u2']);
      assert.deepEqual(await listed(store, 'g', 2, 20), ['u1']);
    });
  });

  it('leave out a member whose stored document left the fence, though memory still named it', async () => {
    await withSqliteStore(async (store) => {
      const u = makeUser(tenant, { id: 'u1', userId: 'one', updatedAt: 1000, geofences: inFences('g') });
      await store.users.save(u);
      assert.deepEqual(await listed(store, 'g'), ['u1']);
      // save() does not read the fences the user was in: memory keeps it in g until a reader checks.
      await store.users.save({ ...u, updatedAt: 2000, geofences: inFences('h') });
      assert.deepEqual(await listed(store, 'g'), []);
      assert.deepEqual(await listed(store, 'h'), ['u1']);
    });
  });

  it('deleting a fence deletes its memberships, found through memory', async () => {
    await withSqliteStore(async (store) => {
      const fence = await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'gone' }), 0);
      const member = makeUser(tenant, { id: 'u1', deviceId: 'd1', updatedAt: 5, geofences: inFences('gone', 'kept') });
      await track(store, null, member);
      assert.equal(await store.geofences.delete(tenant, fence.geofence.id), true);
      assert.deepEqual(store.db.prepare('SELECT geofence_id FROM user_geofences').pluck().all(), ['kept']);
      assert.deepEqual(await listed(store, 'gone'), []);
    });
  });
});

describe('FenceMembers built in chunks', () => {
  it('keeps the writes that land between two chunks of its first pass', async () => {
    await withSqliteStore(async (store) => {
      const inG = [{ geofenceId: 'g', enteredAt: 1, dwelled: false }];
      for (const n of [1, 2, 3, 4, 5]) {
        await store.users.save(makeUser(tenant, { id: `u${n}`, userId: `n${n}`, updatedAt: n, geofences: inG }));
      }
      const members = new FenceMembers(store.db, 2);
      const built = members.ready(); // the first chunk (u1, u2) is read now, the rest a chunk a turn
      const write = async (user: User, before: User['geofences']) => {
        await store.users.save(user);
        members.wrote(user.id, user.updatedAt, before, user.geofences);
      };
      await write(makeUser(tenant, { id: 'u1', userId: 'n1', updatedAt: 10, geofences: [] }), inG);
      await write(makeUser(tenant, { id: 'u5', userId: 'n5', updatedAt: 11, geofences: [] }), inG);
      await write(makeUser(tenant, { id: 'u6', userId: 'n6', updatedAt: 12, geofences: inG }), []);
      await write(makeUser(tenant, { id: 'u2', userId: 'n2', updatedAt: 13, geofences: inG }), inG);
      await built;
      assert.deepEqual(members.page('g', { limit: 10 }).items, [
        { id: 'u2', t: 13 },
        { id: 'u6', t: 12 },
        { id: 'u4', t: 4 },
        { id: 'u3', t: 3 },
      ]);
    });
  });
});
