import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_MIGRATIONS } from './migrations.js';

export type SqliteDb = Database.Database;

/**
 * Opens (creating when missing) the SQLite file and brings its schema up to date. WAL lets the CLI
 * write while the server reads; busy_timeout makes the two wait for each other instead of failing.
 */
export function openDatabase(file: string): SqliteDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints only: a power cut may lose the last commits, never the file.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // SQLite's own page cache (2 MiB) is kept: 64 MiB was no faster for tracks (docs/performance-log.md,
  // Memory) and filled up over a long run, which RSS showed as growth.
  // No memory-mapped reads (SQLite's default): every page of the file that a process reads through a map
  // stays in its resident memory until the map goes, and one connection (the server has one) never
  // drops it. Loading a 100,000-fence index read ~350 MB of the file that way, and the server kept it
  // (docs/performance-log.md, Memory). Read with a system call each, pages go through SQLite's page
  // cache, which one connection keeps valid across its own commits, and the OS's.
  migrate(db);
  return db;
}

function migrate(db: SqliteDb): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map((r) => r.version),
  );
  for (const m of SQLITE_MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    }).immediate();
  }
}

/** Runs `fn` in a write transaction that takes the write lock at once (no upgrade deadlocks). */
export function writeTransaction<T>(db: SqliteDb, fn: () => T): T {
  return db.transaction(fn).immediate();
}
