import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { GroupCommit } from './group-commit.js';
import { openDatabase } from './open-database.js';
import { SqliteStore } from './sqlite-store.js';

describe('GroupCommit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  const db = openDatabase(join(dir, 'test.db'));
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const insert = (k: string) => () => {
    db.prepare('INSERT INTO t (k) VALUES (?)').run(k);
  };
  const keys = () => (db.prepare('SELECT k FROM t ORDER BY k').all() as Array<{ k: string }>).map((r) => r.k);

  it('commits the writes of one turn together', async () => {
    const group = new GroupCommit(db);
    await Promise.all([group.commit(insert('a'), null), group.commit(insert('b'), null)]);
    assert.deepEqual(keys(), ['a', 'b']);
  });

  it('a failing write rolls back alone, its own partial rows included, and rejects only its caller', async () => {
    const group = new GroupCommit(db);
    const failing = () => {
      insert('half')();
      insert('a')(); // primary key clash
    };
    const results = await Promise.allSettled([
      group.commit(insert('c'), null),
      group.commit(failing, null),
      group.commit(insert('d'), null),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(keys(), ['a', 'b', 'c', 'd']);
  });
});

describe('SqliteStore.close', () => {
  it('commits writes still queued for the next group commit before the file closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-close-'));
    try {
      const tenant = { projectId: 'p1', live: false };
      const store = SqliteStore.open(dir);
      const saving = store.geofences.upsert(
        makeCircleGeofence(tenant, { id: 'g-closing', description: 'queued at close' }),
        Date.now(),
      );
      await store.close();
      assert.equal((await saving).geofence.id, 'g-closing');
      const reopened = SqliteStore.open(dir);
      assert.equal((await reopened.geofences.get(tenant, 'g-closing'))?.description, 'queued at close');
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GroupCommit while another connection holds the write lock', () => {
  it('keeps the event loop running, and commits once the lock is free', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-busy-'));
    const file = join(dir, 'test.db');
    const db = openDatabase(file);
    const other = openDatabase(file);
    try {
      db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
      const group = new GroupCommit(db);
      // A first batch before the lock is taken: the second must refuse to wait as well as the first.
      await group.commit(() => void db.prepare('INSERT INTO t (k) VALUES (?)').run('first'), null);
      other.exec('BEGIN IMMEDIATE');
      let committed = false;
      const saving = group.commit(() => void db.prepare('INSERT INTO t (k) VALUES (?)').run('waited'), null);
      void saving.then(() => {
        committed = true;
      });
      // Blocking in SQLite's busy handler, this thread could not run the timer (nor release `other`,
      // which lives on it) for busy_timeout's 5 s.
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 30));
      assert.ok(Date.now() - started < 1000, 'the event loop was blocked');
      assert.equal(committed, false);
      other.exec('COMMIT');
      await saving;
      assert.deepEqual(db.prepare('SELECT k FROM t ORDER BY k').pluck().all(), ['first', 'waited']);
      assert.equal(db.pragma('busy_timeout', { simple: true }), 5000, 'the busy timeout is restored');
    } finally {
      other.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
