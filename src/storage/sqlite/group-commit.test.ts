import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GroupCommit } from './group-commit.js';
import { openDatabase } from './open-database.js';

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
    await Promise.all([group.commit(insert('a')), group.commit(insert('b'))]);
    assert.deepEqual(keys(), ['a', 'b']);
  });

  it('a failing write rolls back alone, its own partial rows included, and rejects only its caller', async () => {
    const group = new GroupCommit(db);
    const failing = () => {
      insert('half')();
      insert('a')(); // primary key clash
    };
    const results = await Promise.allSettled([
      group.commit(insert('c')),
      group.commit(failing),
      group.commit(insert('d')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(keys(), ['a', 'b', 'c', 'd']);
  });
});
