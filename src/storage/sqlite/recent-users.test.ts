import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeUser } from '../../../test/helpers/fixtures.js';
import { heapStringsWith } from '../../../test/helpers/heap-objects.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import { flat } from '../../cache/flat-string.js';
import type { User } from '../../domain/users/user.js';
import { RecentUsers } from './recent-users.js';
import { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };

/** Writes `user` as a track does (the store's own read of its candidates, then the write). */
async function track(store: SqliteStore, user: User): Promise<void> {
  const identity = { userId: user.userId, deviceId: user.deviceId! };
  await store.users.trackUpdate(tenant, identity, async () => ({ user, events: [], result: undefined }));
}

const byDevice = async (store: SqliteStore, deviceId: string) =>
  (await store.users.findTrackCandidates(tenant, { userId: null, deviceId })).byDeviceId?.id ?? null;

describe('SqliteUserStore: users remembered by identity stay the newest stored', () => {
  it('follows a device to the newer user that another userId made on it', async () => {
    await withSqliteStore(async (store) => {
      await track(store, makeUser(tenant, { id: 'a', deviceId: 'd1', updatedAt: 1000 }));
      assert.equal(await byDevice(store, 'd1'), 'a');
      assert.equal(await byDevice(store, 'd1'), 'a', 'remembered');
      await track(store, makeUser(tenant, { id: 'b', userId: 'u-b', deviceId: 'd1', updatedAt: 2000 }));
      assert.equal(await byDevice(store, 'd1'), 'b');
    });
  });

  it('remembers a user it created under identities no user had, without a read', async () => {
    await withSqliteStore(async (store) => {
      await track(store, makeUser(tenant, { id: 'a', userId: 'u-a', deviceId: 'd1', updatedAt: 1000 }));
      // Gone from the table behind the store's back: only what the store remembers can answer.
      store.db.prepare('DELETE FROM users').run();
      assert.equal(await byDevice(store, 'd1'), 'a');
      const byUserId = await store.users.findTrackCandidates(tenant, { userId: 'u-a', deviceId: 'd1' });
      assert.equal(byUserId.byUserId?.id, 'a');
      // A user made beside another one with the same device is not remembered: a read decides.
      await track(store, makeUser(tenant, { id: 'b', userId: 'u-b', deviceId: 'd1', updatedAt: 2000 }));
      store.db.prepare('DELETE FROM users').run();
      assert.equal(await byDevice(store, 'd1'), null);
    });
  });

  it('forgets a device its user moved away from, and sees the moved user under its new device', async () => {
    await withSqliteStore(async (store) => {
      await track(store, makeUser(tenant, { id: 'a', userId: 'u-a', deviceId: 'd1', updatedAt: 1000 }));
      assert.equal(await byDevice(store, 'd1'), 'a');
      const moved = makeUser(tenant, { id: 'a', userId: 'u-a', deviceId: 'd2', updatedAt: 2000 });
      await track(store, moved);
      assert.equal(await byDevice(store, 'd1'), null);
      assert.equal(await byDevice(store, 'd2'), 'a');
      const byUserId = await store.users.findTrackCandidates(tenant, { userId: 'u-a', deviceId: 'd2' });
      assert.equal(byUserId.byUserId?.deviceId, 'd2', 'the userId entry carries the last write');
    });
  });

  it("answers with another process's write once the change poll has seen it", async () => {
    await withSqliteStore(async (store, dir) => {
      const unfollow = store.onExternalChange(() => {});
      await track(store, makeUser(tenant, { id: 'a', deviceId: 'd1', updatedAt: 1000 }));
      assert.equal(await byDevice(store, 'd1'), 'a');
      const other = SqliteStore.open(dir);
      try {
        await track(other, makeUser(tenant, { id: 'b', userId: 'u-b', deviceId: 'd1', updatedAt: 2000 }));
      } finally {
        await other.close();
      }
      store.syncExternalChanges();
      assert.equal(await byDevice(store, 'd1'), 'b');
      unfollow();
    });
  });

  it('forgets a deleted user', async () => {
    await withSqliteStore(async (store) => {
      await track(store, makeUser(tenant, { id: 'a', deviceId: 'd1', updatedAt: 1000 }));
      assert.equal(await byDevice(store, 'd1'), 'a');
      assert.equal(await store.users.delete(tenant, 'a'), true);
      assert.equal(await byDevice(store, 'd1'), null);
    });
  });
});

describe('RecentUsers when full', () => {
  it('keeps every entry of a user on its list through evictions, so a write can still correct it', () => {
    const recent = new RecentUsers(2);
    recent.found(tenant, 'device_id', 'd1', 'x', '{"id":"x"}');
    recent.found(tenant, 'device_id', 'd2', 'y', '{"id":"y"}');
    recent.found(tenant, 'user_id', 'u1', 'x', '{"id":"x"}');
    // d1, the oldest identity, made room for u1; then d2 for d3 (and y, left with none, went with it).
    recent.found(tenant, 'device_id', 'd3', 'z', '{"id":"z"}');
    assert.equal(recent.get(tenant, 'device_id', 'd1'), undefined);
    assert.equal(recent.get(tenant, 'device_id', 'd2'), undefined);
    assert.equal(recent.get(tenant, 'user_id', 'u1'), '{"id":"x"}');
    // x's userId changed: its entry under u1 is wrong now, and the write finds it from x.
    recent.written(makeUser(tenant, { id: 'x', userId: 'u2', deviceId: 'd1', updatedAt: 5 }), '{"id":"x","v":2}');
    assert.equal(recent.get(tenant, 'user_id', 'u1'), undefined, 'the moved identity is dropped');
    recent.written(makeUser(tenant, { id: 'z', deviceId: 'd3', updatedAt: 5 }), '{"id":"z","v":2}');
    assert.equal(recent.get(tenant, 'device_id', 'd3'), '{"id":"z","v":2}', 'a write refreshes what remains');
    // A read that finds another user newest under an identity moves the entry to it.
    recent.found(tenant, 'device_id', 'd3', 'w', '{"id":"w"}');
    recent.written(makeUser(tenant, { id: 'z', userId: 'u9', deviceId: 'd4', updatedAt: 6 }), '{"id":"z","v":3}');
    assert.equal(recent.get(tenant, 'device_id', 'd3'), '{"id":"w"}', "z's move does not drop w's entry");
  });

  it('never holds more identities than its bound, and a write does not bring back one it let go', () => {
    const recent = new RecentUsers(2);
    recent.found(tenant, 'device_id', 'd1', 'x', '{"id":"x"}');
    recent.found(tenant, 'user_id', 'u1', 'x', '{"id":"x"}');
    recent.found(tenant, 'device_id', 'd2', 'y', '{"id":"y"}');
    // Two identities at most: d1, the oldest, made room for d2.
    assert.equal(recent.get(tenant, 'device_id', 'd1'), undefined);
    assert.equal(recent.get(tenant, 'user_id', 'u1'), '{"id":"x"}');
    recent.written(makeUser(tenant, { id: 'x', userId: 'u1', deviceId: 'd1', updatedAt: 5 }), '{"id":"x","v":2}');
    assert.equal(recent.get(tenant, 'device_id', 'd1'), undefined, 'd1 is read from the database again');
    assert.equal(recent.get(tenant, 'user_id', 'u1'), '{"id":"x","v":2}');
    assert.equal(recent.get(tenant, 'device_id', 'd2'), '{"id":"y"}');
  });

  it('never holds more identities than its bound, and lets the oldest go first', () => {
    const bound = 4096;
    const recent = new RecentUsers(bound);
    for (let i = 0; i < 3 * bound; i++)
      recent.found(tenant, 'device_id', `dev-${i}`, `user-${i}`, `{"id":"user-${i}"}`);
    const kept = Array.from({ length: 3 * bound }, (_, i) => recent.get(tenant, 'device_id', `dev-${i}`) !== undefined);
    assert.equal(kept.filter(Boolean).length, bound);
    assert.equal(kept.slice(0, 2 * bound).filter(Boolean).length, 0, 'the oldest went first');
    assert.equal(recent.get(tenant, 'device_id', `dev-${3 * bound - 1}`), `{"id":"user-${3 * bound - 1}"}`);
  });

  it('keeps identities and user ids off the JavaScript heap', async () => {
    const recent = new RecentUsers(1000);
    const marker = `key-${process.pid}-${Date.now()}`;
    // Made flat in a helper and let go (the snapshot counts flat strings): only the cache could keep
    // them on the heap.
    const fill = () => {
      for (let i = 0; i < 500; i++) {
        const made = (kind: string) => flat(`${marker}-${kind}-${i}`);
        recent.created(
          makeUser(tenant, { id: made('id'), userId: made('u'), deviceId: made('d'), updatedAt: i }),
          `{"id":"${i}"}`,
        );
      }
    };
    fill();
    assert.equal(await heapStringsWith(`${marker}-`), 0, 'no identity or id is a string on the heap');
    assert.equal(recent.get(tenant, 'user_id', `${marker}-u-7`), '{"id":"7"}');
    assert.equal(recent.get(tenant, 'device_id', `${marker}-d-499`), '{"id":"499"}');
  });

  it('keeps row texts off the JavaScript heap, and drops one the ring has written over', async () => {
    const recent = new RecentUsers(2);
    const marker = `ring-${process.pid}-${Date.now()}`;
    // Made here and let go: only the cache could keep a copy of it on the heap.
    const keep = () => recent.found(tenant, 'device_id', 'd1', 'x', JSON.stringify({ id: 'x', marker }));
    keep();
    assert.equal(await heapStringsWith(`"marker":"${marker}"`), 0, 'the row text is not a string on the heap');
    assert.equal(recent.get(tenant, 'device_id', 'd1'), JSON.stringify({ id: 'x', marker }));
    // The ring holds 2,560 bytes for two keys: two 1,500-byte texts cannot both stay.
    recent.found(tenant, 'device_id', 'd2', 'y', `{"id":"y","pad":"${'p'.repeat(1500)}"}`);
    recent.found(tenant, 'device_id', 'd3', 'z', `{"id":"z","pad":"${'q'.repeat(1500)}"}`);
    assert.equal(recent.get(tenant, 'device_id', 'd2'), undefined, 'written over by d3');
    assert.match(recent.get(tenant, 'device_id', 'd3') ?? '', /"id":"z"/);
  });
});
