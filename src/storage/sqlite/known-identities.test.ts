import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeUser } from '../../../test/helpers/fixtures.js';
import { withSqliteStore } from '../../../test/helpers/sqlite-store.js';
import type { User } from '../../domain/users/user.js';
import { KnownIdentities } from './known-identities.js';
import { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };
const otherTenant = { projectId: 'p2', live: false };

async function track(store: SqliteStore, user: User): Promise<void> {
  const identity = { userId: user.userId, deviceId: user.deviceId! };
  await store.users.trackUpdate(user, identity, async () => ({ user, events: [], result: undefined }));
}

const byDevice = async (store: SqliteStore, deviceId: string, t = tenant) =>
  (await store.users.findTrackCandidates(t, { userId: null, deviceId })).byDeviceId?.id ?? null;

const byUserId = async (store: SqliteStore, userId: string) =>
  (await store.users.findTrackCandidates(tenant, { userId, deviceId: 'unseen' })).byUserId?.id ?? null;

/** Turns of the event loop until the store has read in every identity of the tenant. */
async function untilRead(store: SqliteStore, t = tenant): Promise<void> {
  for (let i = 0; i < 1000 && !store.users.knowsEveryIdentity(t); i++) await new Promise((r) => setImmediate(r));
  assert.ok(store.users.knowsEveryIdentity(t), 'the identities were read in');
}

describe('KnownIdentities: a track skips the read only for an identity no stored user has', () => {
  it('reads a tenant in pages, both columns, and answers only for complete tenants', async () => {
    const stored = {
      device_id: ['d1', 'd2', 'd3', 'd4', 'd5'],
      user_id: ['u1', 'u2', 'u3'],
    };
    const pages: string[] = [];
    const known = new KnownIdentities((t, column, after, limit) => {
      pages.push(`${t.projectId}:${column}:${after}`);
      return stored[column].filter((v) => after === null || v > after).slice(0, limit);
    }, 2);
    assert.equal(known.mayHave(tenant, 'device_id', 'nobody'), true, 'not read yet: ask the database');
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.ok(known.complete(tenant));
    assert.deepEqual(pages, [
      'p1:device_id:null',
      'p1:device_id:d2',
      'p1:device_id:d4',
      'p1:user_id:null',
      'p1:user_id:u2',
    ]);
    for (const d of stored.device_id) assert.equal(known.mayHave(tenant, 'device_id', d), true);
    for (const u of stored.user_id) assert.equal(known.mayHave(tenant, 'user_id', u), true);
    assert.equal(known.mayHave(tenant, 'device_id', 'nobody'), false);
    assert.equal(known.mayHave(tenant, 'device_id', 'u1'), false, 'a userId is not a deviceId');
    known.add(tenant, 'device_id', 'nobody');
    assert.equal(known.mayHave(tenant, 'device_id', 'nobody'), true);
    known.clear();
    assert.equal(known.complete(tenant), false);
    assert.equal(known.mayHave(tenant, 'device_id', 'someone-else'), true, 'cleared: ask the database again');
  });

  it('gives up a reading that fails, so that lookups keep asking the database', async () => {
    const known = new KnownIdentities(() => {
      throw new Error('closed');
    });
    assert.equal(known.mayHave(tenant, 'device_id', 'd1'), true);
    await new Promise((r) => setImmediate(r));
    assert.equal(known.complete(tenant), false);
    assert.equal(known.mayHave(tenant, 'device_id', 'd1'), true);
  });

  it('finds the users stored before it read, those it writes, and no one else, per tenant', async () => {
    await withSqliteStore(async (store, dir) => {
      await track(store, makeUser(tenant, { id: 'a', deviceId: 'd1', updatedAt: 1000 }));
      await track(store, makeUser(tenant, { id: 'b', userId: 'u-b', deviceId: 'd2', updatedAt: 1000 }));
      await track(store, makeUser(otherTenant, { id: 'c', deviceId: 'd3', updatedAt: 1000 }));
      const fresh = SqliteStore.open(dir);
      try {
        assert.equal(await byDevice(fresh, 'nobody'), null);
        await untilRead(fresh);
        assert.equal(await byDevice(fresh, 'd1'), 'a');
        assert.equal(await byDevice(fresh, 'd2'), 'b');
        assert.equal(await byUserId(fresh, 'u-b'), 'b');
        assert.equal(await byDevice(fresh, 'd3'), null, "another tenant's device");
        assert.equal(await byDevice(fresh, 'd3', otherTenant), 'c');
        await track(fresh, makeUser(tenant, { id: 'd', userId: 'u-d', deviceId: 'd4', updatedAt: 2000 }));
        assert.equal(await byDevice(fresh, 'd4'), 'd', 'written after the reading');
        assert.equal(await byUserId(fresh, 'u-d'), 'd');
        await fresh.users.save(makeUser(tenant, { id: 'e', deviceId: 'd5', updatedAt: 2000 }));
        assert.equal(await byDevice(fresh, 'd5'), 'e', 'saved outside a track');
      } finally {
        await fresh.close();
      }
    });
  });

  it("finds another process's new user once the change poll has delivered it, and reads anew after an unsaid change", async () => {
    await withSqliteStore(async (store, dir) => {
      const unfollow = store.onExternalChange(() => {});
      try {
        assert.equal(await byDevice(store, 'd1'), null);
        await untilRead(store);
        const other = SqliteStore.open(dir);
        try {
          await track(other, makeUser(tenant, { id: 'a', deviceId: 'd1', updatedAt: 1000 }));
          store.syncExternalChanges();
          assert.equal(await byDevice(store, 'd1'), 'a');
          // A bulk write says nothing of what it changed (as the CLI's loads do).
          other.db.prepare("INSERT INTO commit_log (writer, at, changes) VALUES ('cli', 0, NULL)").run();
          other.db
            .prepare(
              `INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, doc)
               SELECT 'b', project_id, live, NULL, 'd2', created_at, updated_at, replace(doc, '"a"', '"b"') FROM users WHERE id = 'a'`,
            )
            .run();
        } finally {
          await other.close();
        }
        // The next request looks again (within one turn of the event loop, calls alone would not).
        store.requestArrived();
        store.syncExternalChanges();
        assert.equal(store.users.knowsEveryIdentity(tenant), false, 'dropped, to be read anew');
        assert.equal(await byDevice(store, 'd2'), 'b');
        await untilRead(store);
        assert.equal(await byDevice(store, 'd2'), 'b');
      } finally {
        unfollow();
      }
    });
  });
});
