import path from 'node:path';
import type { Statement } from 'better-sqlite3';
import type { Store, StoreChange } from '../../domain/ports/store.js';
import { BackgroundCheckpoints, WAL_FALLBACK_CHECKPOINT_PAGES } from './background-checkpoints.js';
import { type CommitChanges, readChanges } from './commit-changes.js';
import { FenceMembers } from './fence-members.js';
import { GroupCommit } from './group-commit.js';
import { markOwnCommits, openDatabase, type SqliteDb, writerOf } from './open-database.js';
import { OWN_COMMIT_SLOTS, OwnCommits } from './own-commits.js';
import { statement } from './paged-query.js';
import { SqliteBeaconStore } from './sqlite-beacon-store.js';
import { SqliteDeliveryStore } from './sqlite-delivery-store.js';
import { SqliteDeviceLogStore } from './sqlite-device-log-store.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { SqliteGeofenceStore } from './sqlite-geofence-store.js';
import { SqliteProjectStore } from './sqlite-project-store.js';
import { SqliteSettingsStore, SqliteUsageStore } from './sqlite-settings-store.js';
import { SqliteTripStore } from './sqlite-trip-store.js';
import { SqliteUserStore } from './sqlite-user-store.js';
import { WalIndexWatch } from './wal-index-watch.js';
import type { OpsCommitter } from './write-ops.js';
import { WriterThread } from './writer-thread.js';

/**
 * How often to look for writes by other processes (API processes, the CLI) while no request asks: a
 * fence written elsewhere reaches this process's index within this long.
 */
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
  readonly deliveries: SqliteDeliveryStore;
  readonly deviceLogs: SqliteDeviceLogStore;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private timer: NodeJS.Timeout | undefined;
  private dataVersion = 0;
  private dataVersionQuery: Statement | undefined;
  /** Whether anything was committed since the last poll, at a fraction of data_version's cost. */
  private readonly walIndex: WalIndexWatch;
  /**
   * This process's commits among the WAL index's change counter values (null: no WAL index to read,
   * an in-memory database): a request's look for other processes' news reads the counter, and the
   * commit log only when some value since the last look is not one of these.
   */
  private readonly own: OwnCommits | null;
  /** The change counter as the last look at the commit log (or past own commits) left it. */
  private seenCounter: number | null = null;
  /** Whether a look for other processes' commits has been made since the last request and turn began. */
  private lookedSinceRequest = false;
  /** Whether the reset at the end of this turn is queued already (one for all the turn's requests). */
  private turnEndQueued = false;
  private readonly turnEnded = () => {
    this.turnEndQueued = false;
    this.lookedSinceRequest = false;
  };
  /** The last commit_log row this process has looked at. */
  private seenSeq = 0;

  /**
   * Where tracks, trips and usage counts are committed, batched: the writer thread when the store was
   * opened with one (see `WriterThread`), else `commits`.
   */
  private readonly writes: OpsCommitter;
  /**
   * Group commit on this thread, for geofence upserts even when there is a writer thread: a fence's
   * document is large, and posting it across cost more than writing it here (PUT 185 µs of CPU here
   * against 266 µs through the thread, 2026-11-22 A/B).
   */
  private readonly commits: GroupCommit;

  constructor(
    readonly db: SqliteDb,
    private readonly writer?: WriterThread,
    private readonly checkpoints?: BackgroundCheckpoints,
    own: OwnCommits | null = OwnCommits.open(db.name),
  ) {
    this.own = own;
    this.walIndex = own?.header ?? new WalIndexWatch(db.name);
    if (own) markOwnCommits(db, own);
    this.commits = new GroupCommit(db);
    this.writes = writer ?? this.commits;
    this.projects = new SqliteProjectStore(db);
    // Their caches answer tracks: other API processes' commits must reach them first.
    const sync = () => this.syncExternalChanges();
    const members = new FenceMembers(db);
    this.users = new SqliteUserStore(db, this.writes, members, sync);
    this.geofences = new SqliteGeofenceStore(db, this.commits, members);
    this.beacons = new SqliteBeaconStore(db);
    this.settings = new SqliteSettingsStore(db);
    this.usage = new SqliteUsageStore(db, this.writes);
    this.events = new SqliteEventStore(db);
    this.trips = new SqliteTripStore(db, this.writes, sync);
    this.deliveries = new SqliteDeliveryStore(db);
    this.deviceLogs = new SqliteDeviceLogStore(db);
  }

  /**
   * Opens `<dataDir>/whereabouts.db`. A server passes `writerThread`: tracks, trips and usage counts
   * are then committed from a worker thread with its own connection, another one copies the WAL into
   * the database file and restarts it, and commits checkpoint themselves only when the WAL has grown
   * past `WAL_FALLBACK_CHECKPOINT_PAGES` anyway (short-lived CLI commands keep SQLite's default and
   * write on their own thread).
   */
  static open(dataDir: string, opts: { writerThread?: boolean } = {}): SqliteStore {
    const file = path.join(dataDir, 'whereabouts.db');
    const db = openDatabase(file);
    if (!opts.writerThread) return new SqliteStore(db);
    db.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_CHECKPOINT_PAGES}`);
    const own = OwnCommits.open(file);
    return new SqliteStore(
      db,
      new WriterThread(file, writerOf(db), own ?? undefined),
      new BackgroundCheckpoints(file),
      own,
    );
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  onExternalChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.dataVersion = this.readDataVersion();
      this.seenSeq = (statement(this.db, 'SELECT max(seq) FROM commit_log').pluck().get() as number | null) ?? 0;
      this.timer = setInterval(() => this.poll(), CHANGE_POLL_MS);
      this.timer.unref();
    }
    return () => this.listeners.delete(listener);
  }

  /**
   * Before every track and cached read: another process's commits since the last look reach the caches
   * first. Where only this process committed since, a read of the change counter is all it costs, and
   * it is read again only once a request has arrived or the event loop has turned since: a request
   * then sees every commit acknowledged before it was sent. (Read on every call, the counter's `pread`
   * took 6.5% of a track row's event loop: a track asks three to five times, 2026-11-29 profile.)
   */
  syncExternalChanges(): void {
    if (!this.timer || this.lookedSinceRequest) return;
    this.lookedSinceRequest = true;
    if (!this.turnEndQueued) {
      this.turnEndQueued = true;
      setImmediate(this.turnEnded);
    }
    const { own, seenCounter } = this;
    const counter = own && seenCounter !== null ? this.walIndex.changeCounter() : null;
    if (!own || seenCounter === null || counter === null) this.poll();
    else if (own.covers(seenCounter, counter)) this.seenCounter = counter;
    else {
      // Another process committed: straight to the log, data_version has nothing to add.
      this.readLog();
      this.sawCounter(counter);
    }
  }

  requestArrived(): void {
    this.lookedSinceRequest = false;
  }

  /**
   * The timer's look, and the first one. It reads the log whenever any other connection committed,
   * this process's writer thread included, so that the last row seen keeps up with the log while this
   * process alone writes: found pruned past it, a later look would have to drop every cache.
   */
  private poll(): void {
    // Read before the commit log: what is committed after this look is found by the next.
    const counter = this.own ? this.walIndex.changeCounter() : null;
    if (this.walIndex.moved()) {
      const v = this.readDataVersion();
      if (v !== this.dataVersion) {
        this.dataVersion = v;
        this.readLog();
      }
    }
    this.sawCounter(counter);
  }

  private sawCounter(counter: number | null): void {
    // A jump past what the marks remember (a WAL index rebuilt, a long burst elsewhere): old marks
    // could match values the counter reaches again.
    if (counter !== null && this.seenCounter !== null && (counter - this.seenCounter) >>> 0 > OWN_COMMIT_SLOTS)
      this.own!.clear();
    this.seenCounter = counter;
  }

  /** Delivers what other processes committed since the last row seen (this process's own are skipped). */
  private readLog(): void {
    const log = this.commitLogSince(this.seenSeq);
    this.seenSeq = Math.max(this.seenSeq, log.last);
    for (const change of log.changes) this.deliver(change);
  }

  /** One record another process changed: this store's caches first, then the listeners' (indexes). */
  private deliver(change: StoreChange): void {
    if (change.kind === 'unknown') this.trips.changedElsewhere();
    if (change.kind === 'trips') this.trips.changedElsewhere(change.tenant, change.id);
    if (change.kind === 'unknown' || change.kind === 'users') this.users.forgetCached(change);
    if (change.kind === 'trips') return;
    for (const l of this.listeners) l(change);
  }

  /**
   * What other writers committed after `seq` (commit-changes.ts), and the last seq seen. A first seq
   * past `seq + 1` means rows were pruned unseen: anything may have changed.
   */
  private commitLogSince(seq: number): { changes: StoreChange[]; last: number } {
    const bounds = statement(this.db, 'SELECT min(seq) AS first, max(seq) AS last FROM commit_log WHERE seq > ?').get(
      seq,
    ) as { first: number | null; last: number | null };
    if (bounds.last === null) return { changes: [], last: seq };
    if (bounds.first! > seq + 1) return { changes: [{ kind: 'unknown' }], last: bounds.last };
    const rows = statement(this.db, 'SELECT changes FROM commit_log WHERE seq > ? AND seq <= ? AND writer <> ?').all(
      seq,
      bounds.last,
      writerOf(this.db),
    ) as Array<{ changes: CommitChanges }>;
    const changes: StoreChange[] = [];
    for (const row of rows) {
      const named = readChanges(row.changes);
      // One that did not say what it changed stands for all the rest.
      if (named[0]?.kind === 'unknown') return { changes: [{ kind: 'unknown' }], last: bounds.last };
      changes.push(...named);
    }
    return { changes, last: bounds.last };
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
    // Writes still queued land before the file closes.
    this.commits.flushNow();
    await this.writer?.close();
    await this.checkpoints?.close();
    this.walIndex.close();
    this.db.close();
  }
}
