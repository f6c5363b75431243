import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { WalIndexWatch } from './wal-index-watch.js';

describe('WalIndexWatch', () => {
  it("moves with every commit of any connection, and not with reads or the watcher's own looks", () => {
    const dir = mkdtempSync(join(tmpdir(), 'whereabouts-wal-watch-'));
    const file = join(dir, 'w.db');
    const a = new Database(file);
    const b = new Database(file);
    const watch = new WalIndexWatch(file);
    try {
      a.pragma('journal_mode = WAL');
      a.exec('CREATE TABLE t (x)');
      assert.equal(watch.moved(), true, 'the first look');
      assert.equal(watch.moved(), false);
      b.prepare('INSERT INTO t VALUES (1)').run();
      assert.equal(watch.moved(), true, "another connection's commit");
      assert.equal(watch.moved(), false);
      assert.equal(a.prepare('SELECT count(*) FROM t').pluck().get(), 1);
      b.prepare('SELECT * FROM t').all();
      assert.equal(watch.moved(), false, 'reads leave it');
      a.prepare('INSERT INTO t VALUES (2)').run();
      assert.equal(watch.moved(), true, 'a commit of the first connection too');
      b.pragma('wal_checkpoint(TRUNCATE)');
      b.prepare('INSERT INTO t VALUES (3)').run();
      assert.equal(watch.moved(), true, 'a commit into a restarted WAL');
      assert.equal(watch.moved(), false);
    } finally {
      watch.close();
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers that it may have moved where there is no WAL index to read', () => {
    const watch = new WalIndexWatch(':memory:');
    assert.equal(watch.moved(), true);
    assert.equal(watch.moved(), true);
  });
});
