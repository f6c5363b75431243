import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GroupCommit } from './group-commit.js';
import { openDatabase } from './open-database.js';

describe('GroupCommit', () => {
  const open = () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    return db;
  };
  const insert = (k: number, v: string | null) => [{ sql: 'INSERT INTO t (k, v) VALUES (?, ?)', params: [k, v] }];

  it('commits the writes of one turn together once the turn ends, each caller resolving after it', async () => {
    const db = open();
    const commits = new GroupCommit(db);
    const writes = [1, 2, 3].map((k) => commits.commit(insert(k, `v${k}`)));
    assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 0, 'nothing written before the turn ends');
    await Promise.all(writes);
    assert.deepEqual(db.prepare('SELECT k FROM t ORDER BY k').pluck().all(), [1, 2, 3]);
    db.close();
  });

  it('rolls back a failing write alone and rejects only its caller', async () => {
    const db = open();
    const commits = new GroupCommit(db);
    const results = await Promise.allSettled([
      commits.commit(insert(1, 'one')),
      commits.commit(insert(2, null)),
      commits.commit([...insert(3, 'three'), ...insert(1, 'again')]),
      commits.commit(insert(4, 'four')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    // The third write's first row went with its failing second one.
    assert.deepEqual(db.prepare('SELECT k, v FROM t ORDER BY k').raw().all(), [
      [1, 'one'],
      [4, 'four'],
    ]);
    db.close();
  });

  it('commits what is queued at once when flushed (before the store closes)', () => {
    const db = open();
    const commits = new GroupCommit(db);
    void commits.commit(insert(7, 'seven'));
    commits.flush();
    assert.equal(db.prepare('SELECT v FROM t WHERE k = 7').pluck().get(), 'seven');
    db.close();
  });
});
