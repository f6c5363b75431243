import path from 'node:path';
import type { Statement } from 'better-sqlite3';
import type { Store, StoreChange } from '../store.js';
import { BackgroundCheckpoints } from './background-checkpoints.js';
import { GroupCommit } from './group-commit.js';
import { openDatabase, type SqliteDb } from './open-database.js';
import { SqliteBeaconStore } from './sqlite-beacon-store.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { SqliteGeofenceStore } from './sqlite-geofence-store.js';
import { SqliteProjectStore } from './sqlite-project-store.js';
import { SqliteSettingsStore, SqliteUsageStore } from './sqlite-settings-store.js';
import { SqliteTripStore } from './sqlite-trip-store.js';
import { SqliteUserStore } from './sqlite-user-store.js';

/** How often to look for writes by other processes (the CLI) through `PRAGMA data_version`. */
const CHANGE_POLL_MS = 200;

export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly projects: SqliteProjectStore;
  readonly users: SqliteUserStore;
  readonly geofences: SqliteGeofenceStore;
  readonly beacons: SqliteBeaconStore;
  readonly settings: SqliteSettingsStore;
  readonly usage: SqliteUsageStore;
  readonly events: SqliteEventStore;
  readonly trips: SqliteTripStore;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private timer: NodeJS.Timeout | undefined;
  private dataVersion = 0;
  private dataVersionQuery: Statement | undefined;

  /** One group commit for every store that batches writes: a track's user and trip rows share it. */
  private readonly commits: GroupCommit;
  private checkpoints: BackgroundCheckpoints | undefined;

  constructor(readonly db: SqliteDb) {
    this.projects = new SqliteProjectStore(db);
    this.commits = new GroupCommit(db);
    this.users = new SqliteUserStore(db, this.commits);
    this.geofences = new SqliteGeofenceStore(db, this.commits);
    this.beacons = new SqliteBeaconStore(db);
    this.settings = new SqliteSettingsStore(db);
    this.usage = new SqliteUsageStore(db);
    this.events = new SqliteEventStore(db);
    this.trips = new SqliteTripStore(db, this.commits);
  }

  /**
   * Opens `<dataDir>/whereabouts.db`. A server passes `backgroundCheckpoints`: the WAL is then copied
   * into the database file from a worker thread, and commits checkpoint themselves only when the WAL
   * has grown past 4,000 pages anyway (short-lived CLI commands keep SQLite's default).
   */
  static open(dataDir: string, opts: { backgroundCheckpoints?: boolean } = {}): SqliteStore {
    const file = path.join(dataDir, 'whereabouts.db');
    const store = new SqliteStore(openDatabase(file));
    if (opts.backgroundCheckpoints) {
      store.db.pragma('wal_autocheckpoint = 4000');
      store.checkpoints = new BackgroundCheckpoints(file);
    }
    return store;
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  onExternalChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.dataVersion = this.readDataVersion();
      this.timer = setInterval(() => this.poll(), CHANGE_POLL_MS);
      this.timer.unref();
    }
    return () => this.listeners.delete(listener);
  }

  syncExternalChanges(): void {
    if (this.timer) this.poll();
  }

  private poll(): void {
    const v = this.readDataVersion();
    if (v === this.dataVersion) return;
    this.dataVersion = v;
    for (const l of this.listeners) l({ kind: 'unknown' });
  }

  private readDataVersion(): number {
    // data_version moves only when another connection commits, which is exactly the signal we want.
    // Prepared once: cached reads check it on every request, and `db.pragma` prepares each time.
    this.dataVersionQuery ??= this.db.prepare('PRAGMA data_version').pluck();
    return this.dataVersionQuery.get() as number;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (!this.db.open) return;
    // Writes still queued for the next group commit land before the file closes.
    this.commits.flushNow();
    await this.checkpoints?.close();
    this.db.close();
  }
}
