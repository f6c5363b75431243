import path from 'node:path';
import type { Statement } from 'better-sqlite3';
import type { Store, StoreChange } from '../../domain/ports/store.js';
import { FenceMembers } from './fence-members.js';
import { GroupCommit } from './group-commit.js';
import { openDatabase, type SqliteDb } from './open-database.js';
import { SqliteBeaconStore } from './sqlite-beacon-store.js';
import { SqliteDeliveryStore } from './sqlite-delivery-store.js';
import { SqliteDeviceLogStore } from './sqlite-device-log-store.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { SqliteGeofenceStore } from './sqlite-geofence-store.js';
import { SqliteProjectStore } from './sqlite-project-store.js';
import { SqliteSettingsStore, SqliteUsageStore } from './sqlite-settings-store.js';
import { SqliteTripStore } from './sqlite-trip-store.js';
import { SqliteUserStore } from './sqlite-user-store.js';

/** How often to look for commits by another process (the CLI): its writes reach the caches within this long. */
const CHANGE_POLL_MS = 200;

/**
 * The embedded store: one API process per file, writing on its event loop in short IMMEDIATE
 * transactions (docs/adr/sqlite-one-process.md). Other processes (the CLI) may still write; the
 * store notices through `PRAGMA data_version` and tells its listeners to drop what they keep.
 */
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
  readonly deliveries: SqliteDeliveryStore;
  readonly deviceLogs: SqliteDeviceLogStore;
  private readonly members: FenceMembers;
  private readonly tracks: GroupCommit;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private timer: NodeJS.Timeout | undefined;
  private dataVersion = 0;
  private readonly dataVersionQuery: Statement;

  constructor(readonly db: SqliteDb) {
    // data_version moves only when another connection commits: this connection's own commits leave it.
    this.dataVersionQuery = db.prepare('PRAGMA data_version').pluck();
    this.members = new FenceMembers(db);
    this.tracks = new GroupCommit(db);
    this.projects = new SqliteProjectStore(db);
    this.users = new SqliteUserStore(db, this.members, this.tracks);
    this.geofences = new SqliteGeofenceStore(db, this.members);
    this.beacons = new SqliteBeaconStore(db);
    this.settings = new SqliteSettingsStore(db);
    this.usage = new SqliteUsageStore(db);
    this.events = new SqliteEventStore(db);
    this.trips = new SqliteTripStore(db);
    this.deliveries = new SqliteDeliveryStore(db);
    this.deviceLogs = new SqliteDeviceLogStore(db);
  }

  /** Opens `<dataDir>/whereabouts.db`. */
  static open(dataDir: string): SqliteStore {
    return new SqliteStore(openDatabase(path.join(dataDir, 'whereabouts.db')));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  onExternalChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.dataVersion = this.dataVersionQuery.get() as number;
      this.timer = setInterval(() => this.syncExternalChanges(), CHANGE_POLL_MS);
      this.timer.unref();
    }
    return () => this.listeners.delete(listener);
  }

  /**
   * Looks now for another process's commit (a few µs): a cache consulted right after is then exact.
   * What changed is not said, so every listener drops what it keeps (`kind: 'unknown'`).
   */
  syncExternalChanges(): void {
    if (!this.timer || !this.db.open) return;
    const version = this.dataVersionQuery.get() as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.members.forget();
    for (const listener of this.listeners) listener({ kind: 'unknown' });
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (!this.db.open) return;
    // Tracks still queued land before the file closes.
    this.tracks.flush();
    this.db.close();
  }
}
