import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config.js';

/** The SQLite store's file under DATA_DIR (storage/sqlite/sqlite-store.ts opens the same). */
const DB_FILE = 'whereabouts.db';

const POSTGRES_ADVICE =
  'With DATABASE_URL set the data lives in PostgreSQL: back it up with pg_dump -Fc and restore it with pg_restore (docs/operations.md).';

/**
 * `backup <file>`: a consistent copy of the SQLite store, taken while a server runs and writes. It uses
 * SQLite's online backup from a connection of its own; in WAL mode that connection only reads, so the
 * server's writers never wait for it. The copy is written next to `file` and renamed into place, so
 * `file` is either the previous backup or a whole new one, never half of one.
 */
export async function backupCommand(config: Config, args: string[]): Promise<number> {
  const [target, ...extra] = args;
  if (!target || extra.length > 0) return usage('backup <file>');
  if (config.databaseUrl) return refuse(POSTGRES_ADVICE);
  const source = path.join(config.dataDir, DB_FILE);
  if (!fs.existsSync(source)) return refuse(`No database at ${source} (check DATA_DIR).`);
  const file = path.resolve(target);
  const partial = `${file}.partial-${process.pid}`;
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // All pages in one step, i.e. one read transaction: a consistent snapshot. Copied in small steps
    // (the default), every commit of the server in between would restart the copy from the first page,
    // and under steady writes it might never finish.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  fsyncFile(partial);
  fs.renameSync(partial, file);
  const bytes = fs.statSync(file).size;
  process.stdout.write(`Backed up ${source} to ${file} (${(bytes / 2 ** 20).toFixed(1)} MiB).\n`);
  return 0;
}

/**
 * `restore <file>`: puts a backup in place of DATA_DIR's database. It refuses while any process (a
 * server, a CLI command) has that database open: it asks SQLite for an exclusive lock, which a WAL
 * connection's shared lock blocks. The database it replaces is kept beside it, renamed
 * `whereabouts.db.replaced-<time>`, for the operator to delete once the restore is confirmed good.
 */
export async function restoreCommand(config: Config, args: string[]): Promise<number> {
  const [from, ...extra] = args;
  if (!from || extra.length > 0) return usage('restore <file>');
  if (config.databaseUrl) return refuse(POSTGRES_ADVICE);
  const backup = path.resolve(from);
  if (!fs.existsSync(backup)) return refuse(`No backup file at ${backup}.`);
  const problem = checkBackup(backup);
  if (problem) return refuse(`${backup} is not a usable backup: ${problem}`);

  fs.mkdirSync(config.dataDir, { recursive: true });
  const live = path.join(config.dataDir, DB_FILE);
  const incoming = `${live}.restoring-${process.pid}`;
  // Copied first (it may be large) so the database is out of service only for two renames.
  fs.copyFileSync(backup, incoming);
  fsyncFile(incoming);
  let keptAs: string | null = null;
  try {
    if (fs.existsSync(live)) {
      if (!closeIfUnused(live)) {
        return refuse(
          `${live} is open in another process (a running server?). Stop it, then run restore again; nothing was changed.`,
        );
      }
      keptAs = `${live}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(live, keptAs);
    }
    // A WAL or shared-memory file left by the replaced database must not be applied to the restored one.
    for (const suffix of ['-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
    fs.renameSync(incoming, live);
  } finally {
    fs.rmSync(incoming, { force: true });
  }
  process.stdout.write(
    `Restored ${backup} into ${live}.${keptAs ? ` The database it replaced is kept as ${keptAs}.` : ''}\n`,
  );
  return 0;
}

/** Why `file` cannot be restored (not SQLite, damaged, not this program's schema), or null. */
function checkBackup(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') return `SQLite's quick_check says ${String(check)}.`;
    const migrated = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    return migrated ? null : 'it has no Whereabouts schema.';
  } catch (err) {
    return (err as Error).message;
  } finally {
    db?.close();
  }
}

/**
 * Whether no other connection has the database open; when none has, its WAL is first copied into the
 * file, so the database kept aside is whole on its own. A connection in EXCLUSIVE locking mode needs an
 * exclusive lock on the file, which SQLite refuses (busy, no waiting here) while any other connection
 * in WAL mode holds its shared lock: and each holds one as long as it is open, idle or not.
 */
function closeIfUnused(file: string): boolean {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw err;
  } finally {
    db.close();
  }
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function usage(form: string): number {
  process.stderr.write(`Usage: npm run cli -- ${form}\n`);
  return 2;
}

function refuse(message: string): number {
  process.stderr.write(`${message}\n`);
  return 1;
}
