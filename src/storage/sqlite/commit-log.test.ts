import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  COMMIT_LOG_INSERT,
  COMMIT_LOG_KEEP_MS,
  COMMIT_LOG_PRUNE_EVERY,
  openDatabase,
  writeTransaction,
} from './open-database.js';

describe('commit log pruning', () => {
  it('drops the rows older than the kept minute as commits go on, and keeps the younger ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'commit-log-'));
    const db = openDatabase(join(dir, 'test.db'), 'me');
    try {
      const now = Date.now();
      const insert = db.prepare(COMMIT_LOG_INSERT);
      // 300 rows two minutes old, then 50 from ten seconds ago: what a busy minute leaves behind.
      for (let i = 0; i < 300; i++) insert.run('other', now - 2 * COMMIT_LOG_KEEP_MS, null);
      for (let i = 0; i < 50; i++) insert.run('other', now - 10_000, null);
      const count = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0;
      // Enough commits that one of them prunes, whatever the process's count so far.
      for (let i = 0; i < COMMIT_LOG_PRUNE_EVERY; i++) writeTransaction(db, () => {});
      assert.equal(count(`SELECT count(*) FROM commit_log WHERE at < ${now - COMMIT_LOG_KEEP_MS}`), 0);
      assert.equal(count(`SELECT count(*) FROM commit_log WHERE writer = 'other'`), 50);
      assert.equal(count(`SELECT count(*) FROM commit_log WHERE writer = 'me'`), COMMIT_LOG_PRUNE_EVERY);
      // Readers find their place by sequence number: the newest stays the count of rows ever logged.
      assert.equal(count('SELECT max(seq) FROM commit_log'), 350 + COMMIT_LOG_PRUNE_EVERY);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
