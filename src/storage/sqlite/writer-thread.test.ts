import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { makeCircleGeofence, makeUser } from '../../../test/helpers/fixtures.js';
import { changeLine } from './commit-changes.js';
import { openDatabase, writerOf, writeTransaction } from './open-database.js';
import { SqliteStore } from './sqlite-store.js';
import { WriterThread } from './writer-thread.js';

const tenant = { projectId: 'p1', live: false };

/** Whether the database file alone, without its WAL, already holds the fence. */
function inMainFile(dir: string, id: string): boolean {
  const copy = join(dir, 'main-only.db');
  copyFileSync(join(dir, 'whereabouts.db'), copy);
  try {
    const db = new Database(copy, { readonly: true });
    try {
      return db.prepare('SELECT 1 FROM geofences WHERE id = ?').get(id) !== undefined;
    } finally {
      db.close();
    }
  } catch {
    return false; // copied halfway through a checkpoint: look again
  } finally {
    rmSync(copy, { force: true });
  }
}

describe('SqliteStore writer thread: checkpoints', () => {
  it('copies a commit into the database file while the store stays open (SQLite alone waits for 1,000 pages)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writer-thread-'));
    const store = SqliteStore.open(dir, { writerThread: true });
    try {
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-checkpointed' }), Date.now());
      let found = false;
      for (let i = 0; i < 50 && !found; i++) {
        await new Promise((r) => setTimeout(r, 100));
        found = inMainFile(dir, 'g-checkpointed');
      }
      assert.ok(found, 'the fence reached the database file within 5 s');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without them the same commit stays in the WAL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writer-thread-'));
    const store = SqliteStore.open(dir);
    try {
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-in-wal' }), Date.now());
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(inMainFile(dir, 'g-in-wal'), false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WriterThread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'writer-thread-'));
  const db = openDatabase(join(dir, 'test.db'));
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  const writer = new WriterThread(join(dir, 'test.db'), writerOf(db));
  after(async () => {
    await writer.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const insert = (k: string) => ({ sql: 'INSERT INTO t (k) VALUES (?)', params: [k] });
  const keys = () => (db.prepare('SELECT k FROM t ORDER BY k').all() as Array<{ k: string }>).map((r) => r.k);

  it('commits units on its own connection, visible to the event loop once they resolve', async () => {
    await Promise.all([writer.commitOps([insert('a')], null), writer.commitOps([insert('b'), insert('c')], null)]);
    assert.deepEqual(keys(), ['a', 'b', 'c']);
  });

  it('a failing unit rolls back alone, its own earlier rows included, and rejects only its caller', async () => {
    const results = await Promise.allSettled([
      writer.commitOps([insert('d')], null),
      writer.commitOps([insert('half'), insert('a')], null),
      writer.commitOps([insert('e')], null),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.deepEqual(keys(), ['a', 'b', 'c', 'd', 'e']);
  });

  it('a statement that does not prepare fails its unit alone; the statements sent before still run', async () => {
    const results = await Promise.allSettled([
      writer.commitOps([insert('f'), { sql: 'INSERT INTO missing (k) VALUES (?)', params: ['x'] }], null),
      writer.commitOps([{ sql: 'INSERT INTO t (k) VALUES (@k)', params: { k: 'g' } }], null),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'fulfilled'],
    );
    assert.match(String((results[0] as PromiseRejectedResult).reason), /no such table/);
    await writer.commitOps([insert('h'), { sql: 'INSERT INTO t (k) VALUES (@k)', params: { k: 'i' } }], null);
    assert.deepEqual(keys(), ['a', 'b', 'c', 'd', 'e', 'g', 'h', 'i']);
  });

  it("waits for another connection's write lock and commits as soon as it is released", async () => {
    // Released at 260 ms, SQLite's busy handler would look again only at 353 ms (it sleeps 1, 2, 5,
    // 10, 15, 20, 25, 25, 25, 50, 50, 100 ms in turn).
    db.exec('BEGIN IMMEDIATE');
    let releasedAt = 0;
    const release = new Promise<void>((resolve) =>
      setTimeout(() => {
        db.exec('COMMIT');
        releasedAt = performance.now();
        resolve();
      }, 260),
    );
    await writer.commitOps([insert('held')], null);
    const committedAt = performance.now();
    await release;
    assert.ok(releasedAt > 0 && committedAt >= releasedAt, 'the commit waited for the lock');
    assert.ok(committedAt - releasedAt < 50, `committed ${Math.round(committedAt - releasedAt)} ms after the release`);
    assert.ok(keys().includes('held'));
  });

  it('a thread started after one stopped is sent the statements again', async () => {
    const worker = (writer as unknown as { worker: Worker }).worker;
    await new Promise((resolve) => {
      worker.once('exit', resolve);
      void worker.terminate();
    });
    await writer.commitOps([insert('j')], null);
    assert.deepEqual(keys().slice(-2), ['i', 'j']);
  });
});

describe('SqliteStore external changes with a writer thread', () => {
  it("reports another process's commit, not its own writer thread's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writer-thread-'));
    const store = SqliteStore.open(dir, { writerThread: true });
    const changes: string[] = [];
    const unfollow = store.onExternalChange((c) => changes.push(`${c.kind} ${c.tenant?.projectId} ${c.id}`));
    try {
      const user = makeUser(tenant, { id: 'u-own', updatedAt: Date.now(), deviceId: 'own' });
      await store.users.trackUpdate(tenant, { userId: null, deviceId: 'own' }, async () => ({
        user,
        events: [],
        result: null,
      }));
      store.syncExternalChanges();
      assert.deepEqual(changes, [], 'the writer thread committed for this process');
      assert.equal((await store.users.get(tenant, user.id))?.deviceId, 'own');

      const other = SqliteStore.open(dir);
      await other.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-foreign' }), Date.now());
      await other.close();
      store.syncExternalChanges();
      assert.deepEqual(changes, [`geofences ${tenant.projectId} g-foreign`], 'what changed, from the commit log');
    } finally {
      unfollow();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('looks again once a request has arrived, and once the event loop has turned; not in between', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writer-thread-'));
    const store = SqliteStore.open(dir, { writerThread: true });
    const other = openDatabase(join(dir, 'whereabouts.db'));
    const changes: string[] = [];
    const unfollow = store.onExternalChange((c) => changes.push(`${c.kind} ${c.id}`));
    const foreignCommit = (id: string) => writeTransaction(other, () => {}, changeLine('geofences', tenant, id));
    try {
      store.syncExternalChanges();
      foreignCommit('g-1');
      store.syncExternalChanges();
      assert.deepEqual(changes, [], 'one look between requests within a turn');
      store.requestArrived();
      store.syncExternalChanges();
      assert.deepEqual(changes, ['geofences g-1'], 'a request arrived since');
      foreignCommit('g-2');
      await new Promise((r) => setImmediate(r));
      store.syncExternalChanges();
      assert.deepEqual(changes, ['geofences g-1', 'geofences g-2'], 'the event loop turned since');
    } finally {
      unfollow();
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
