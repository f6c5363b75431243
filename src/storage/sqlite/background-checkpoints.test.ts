import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackgroundCheckpoints, CHECKPOINTS_STOPPED } from './background-checkpoints.js';
import { openDatabase } from './open-database.js';

describe('BackgroundCheckpoints', () => {
  it('restarts the WAL under steady writes, so that no commit has to checkpoint it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
    const file = join(dir, 'test.db');
    const db = openDatabase(file);
    // Commits never checkpoint here: only the worker can keep the WAL short.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
    const checkpoints = new BackgroundCheckpoints(file, { restartAtPages: 20, intervalMs: 50 });
    try {
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const pad = 'x'.repeat(3000);
      let commits = 0;
      // A commit every millisecond or so for 1.5 s: a PASSIVE copy never catches up with that, so
      // without restarts the WAL would hold about a frame per commit by the end.
      const until = Date.now() + 1500;
      while (Date.now() < until) {
        insert.run(pad);
        commits++;
        await sleep(1);
      }
      const log = (db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]!.log;
      assert.ok(commits > 300, `only ${commits} commits in 1.5 s`);
      assert.ok(log < commits / 4, `the WAL holds ${log} frames after ${commits} commits: it was not restarted`);
    } finally {
      await checkpoints.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns on stderr when its thread fails, instead of leaving commits to checkpoint in silence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
    // A directory that does not exist: the thread cannot open the file.
    const file = join(dir, 'missing', 'test.db');
    const warned = new Promise<Error>((resolve) => {
      const onWarning = (w: Error & { code?: string }) => {
        if (w.code !== CHECKPOINTS_STOPPED) return;
        process.off('warning', onWarning);
        resolve(w);
      };
      process.on('warning', onWarning);
    });
    const checkpoints = new BackgroundCheckpoints(file, { intervalMs: 50 });
    try {
      const warning = await Promise.race([
        warned,
        sleep(5000).then(() => assert.fail('no warning within 5 s of the thread failing')),
      ]);
      assert.match(warning.message, /background checkpoints stopped/);
    } finally {
      await checkpoints.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
