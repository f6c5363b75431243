import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

describe('closing the store threads', () => {
  // In a process of its own with nothing else to keep it up: a thread left unreferenced while it
  // closes lets that process end with the close never settled (Node exits 13).
  const closeAlone = (body: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'close-'));
    try {
      const script = `
        import { openDatabase } from ${JSON.stringify(new URL('./open-database.ts', import.meta.url).href)};
        import { BackgroundCheckpoints } from ${JSON.stringify(new URL('./background-checkpoints.ts', import.meta.url).href)};
        import { WriterThread } from ${JSON.stringify(new URL('./writer-thread.ts', import.meta.url).href)};
        const file = ${JSON.stringify(join(dir, 'test.db'))};
        const db = openDatabase(file);
        db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
        ${body}
        db.close();
        console.log('closed');`;
      return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 30_000,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('keeps the process up until the checkpoint thread has closed', () => {
    const run = closeAlone(`
      for (let i = 0; i < 40; i++) await new BackgroundCheckpoints(file, { intervalMs: 50 }).close();`);
    assert.equal(run.stdout.trim(), 'closed', run.stderr);
    assert.equal(run.status, 0);
  });

  it('keeps the process up until the writer thread has committed and closed, writes still in flight', () => {
    const run = closeAlone(`
      for (let round = 0; round < 40; round++) {
        const writer = new WriterThread(file, 'test');
        const commits = Array.from({ length: 50 }, (_, i) =>
          writer.commitOps([{ sql: 'INSERT INTO t (v) VALUES (?)', params: ['v' + i] }], ''),
        );
        // Closing before any commit has come back: the last replies arrive while it closes.
        await writer.close();
        await Promise.all(commits);
      }
      if (db.prepare('SELECT count(*) AS n FROM t').get().n !== 2000) throw new Error('writes lost');`);
    assert.equal(run.stdout.trim(), 'closed', run.stderr);
    assert.equal(run.status, 0);
  });
});
