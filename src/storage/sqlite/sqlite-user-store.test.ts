import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeUser } from '../../../test/helpers/fixtures.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { User } from '../../domain/users/user.js';
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
