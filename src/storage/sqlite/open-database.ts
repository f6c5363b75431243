import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type CommitChanges, changesNow, type LaterChanges } from './commit-changes.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import type { OwnCommits } from './own-commits.js';
import { statement } from './paged-query.js';

export type SqliteDb = Database.Database;

/**
 * Opens (creating when missing) the SQLite file and brings its schema up to date. WAL lets the CLI
 * write while a server reads; busy_timeout makes the two wait for each other instead of failing.
 */
export function openDatabase(file: string, writer: string = randomUUID()): SqliteDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  writers.set(db, writer);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // 64 MiB of page cache instead of SQLite's 2 MiB: the index pages a track touches (users, events,
  // memberships) then stay in the process instead of being read back from the OS on every write.
  db.pragma('cache_size = -65536');
  // A connection drops its page cache whenever another one commits (the writer thread, every few
  // milliseconds under load): mapped, the database file's pages are read from the OS's cache without
  // a system call each.
  db.pragma('mmap_size = 1073741824');
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

const writers = new WeakMap<SqliteDb, string>();

/** Who commits through this connection, as the commit log names it (see `COMMIT_LOG_INSERT`). */
export function writerOf(db: SqliteDb): string {
  const writer = writers.get(db);
  if (writer === undefined) throw new Error('the connection was not opened with openDatabase');
  return writer;
}

/**
 * Every write transaction leaves a row naming its writer, so that a process can tell its own commits
 * (from its event loop or its writer thread, two connections) from another process's: `PRAGMA
 * data_version` says only that some other connection committed. Rows older than a minute are pruned
 * now and then; a reader that finds a gap after its last seen row treats it as a foreign commit.
 */
export const COMMIT_LOG_INSERT = 'INSERT INTO commit_log (writer, at, changes) VALUES (?, ?, ?)';
// Deletes the rows before the first one young enough to keep: a walk from the oldest row that stops
// there, so its cost is the rows it deletes. (Testing `at` of every row, as a first version did,
// read the whole minute of rows and held the write lock ~5-15 ms once a second under load.) The
// pruning commit has logged its own row first, so the newest row always stays.
export const COMMIT_LOG_PRUNE =
  'DELETE FROM commit_log WHERE seq < (SELECT seq FROM commit_log WHERE at >= ? ORDER BY seq LIMIT 1)';
export const COMMIT_LOG_KEEP_MS = 60_000;
/** Commits between prunes: often enough that each deletes a few dozen rows. */
export const COMMIT_LOG_PRUNE_EVERY = 64;
let commitsSincePrune = 0;

/**
 * Runs `fn` in a write transaction that takes the write lock at once (no upgrade deadlocks), logged
 * with what it changes (`changes`: see commit-changes.ts; not given, other processes drop all they keep;
 * a function is asked after `fn` has run, for writes that learn what they change as they write).
 */
export function writeTransaction<T>(db: SqliteDb, fn: () => T, changes: LaterChanges = null): T {
  const own = ownCommits.get(db);
  let claimed: number | null = null;
  try {
    return db
      .transaction(() => {
        const out = fn();
        logCommit(db, changesNow(changes));
        // Every transaction logs a row, so its COMMIT moves the change counter (see OwnCommits).
        claimed = own?.claim() ?? null;
        return out;
      })
      .immediate();
  } catch (err) {
    if (claimed !== null) own!.unclaim(claimed);
    throw err;
  }
}

const ownCommits = new WeakMap<SqliteDb, OwnCommits>();

/** Has `writeTransaction` on `db` mark its commits in `own`. */
export function markOwnCommits(db: SqliteDb, own: OwnCommits): void {
  ownCommits.set(db, own);
}

function logCommit(db: SqliteDb, changes: CommitChanges): void {
  const now = Date.now();
  statement(db, COMMIT_LOG_INSERT).run(writerOf(db), now, changes);
  if (++commitsSincePrune >= COMMIT_LOG_PRUNE_EVERY) {
    commitsSincePrune = 0;
    statement(db, COMMIT_LOG_PRUNE).run(now - COMMIT_LOG_KEEP_MS);
  }
}
