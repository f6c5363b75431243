import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';

/**
 * Runs `fn` with a SQLite store opened over a fresh temporary directory, which is removed afterwards;
 * `dir` lets a test open a second store there, as the CLI would.
 */
export async function withSqliteStore(fn: (store: SqliteStore, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'whereabouts-store-'));
  const store = SqliteStore.open(dir);
  try {
    await fn(store, dir);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
