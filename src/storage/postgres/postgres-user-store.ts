import type pg from 'pg';
import type { LocationEvent } from '../../domain/events/event.js';
import type { Page, PageQuery } from '../../domain/pagination.js';
import type { TrackUnit } from '../../domain/ports/track-unit.js';
import type {
  TrackCandidates,
  TrackIdentity,
  TrackWrite,
  UserLocation,
  UserStore,
} from '../../domain/ports/user-store.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Trip } from '../../domain/trips/trip.js';
import type { User } from '../../domain/users/user.js';
import type { Position } from '../../geo/types.js';
import { eventDocuments } from '../event-document.js';
import type { ChangeNotifier } from './change-notifier.js';
import { inTransaction } from './open-pool.js';
import { pagedDocs } from './paged-docs.js';
import { insertDeliveriesSql } from './postgres-delivery-store.js';
import { ensurePrepared, execute, replanIfDue } from './prepared-statements.js';
import { lit, quote, row, runBatch } from './sql-batch.js';
import { type GroupableTrack, TrackGroups } from './track-groups.js';
import { GroupConflict, type PrefetchedTrips, trackTransaction } from './track-transaction.js';
import { announceUserWrite, UserNearCache, userChangePrefix, watchLockKey } from './user-near-cache.js';

/**
 * Track transactions a process runs at once, each on a connection of the pool. A transaction holds
 * its connection across compute and the event loop's waits for both replies; compute reads through
 * the pool too (trips, a first index load), so the pool is sized above this (createPool), or a burst
 * of tracks would take every connection and each wait for one more.
 */
export const TRACK_TRANSACTIONS = 4;

/** Tracks one transaction holds at most (track-groups.ts). */
export const TRACK_GROUP_SIZE = 32;

/** The unit a track's `compute` gets: the transaction itself is found through `trackTransaction`. */
const TRACK_UNIT: TrackUnit = { trackUnit: true };

export class PostgresUserStore implements UserStore {
  /** Advisory locks on the identity and `FOR UPDATE` reads, in the track's transaction. */
  readonly serialisesTracks = true;

  /** Tracks waiting for a transaction, and the transactions in flight (track-groups.ts). */
  private readonly groups = new TrackGroups<QueuedTrack>(TRACK_TRANSACTIONS, TRACK_GROUP_SIZE, (group) =>
    this.runGroup(group),
  );

  /** Track transactions committed, and the tracks they held: what grouping saves, for tests. */
  readonly committed = { transactions: 0, tracks: 0 };

  /** Answers `near` from memory (user-near-cache.ts); told of every user write this process commits. */
  private readonly nearCache: UserNearCache;

  constructor(
    private readonly pool: pg.Pool,
    notifier: ChangeNotifier,
  ) {
    this.nearCache = new UserNearCache(pool, notifier);
  }

  list(tenant: Tenant, page: PageQuery): Promise<Page<User>> {
    return pagedDocs<User>(this.pool, {
      from: 'FROM users WHERE project_id = $1 AND live = $2',
      params: [tenant.projectId, tenant.live],
      timeColumn: 'updated_at',
      idColumn: 'id',
      page,
    });
  }

  async getByInstallId(tenant: Tenant, installId: string): Promise<User | null> {
    const { rows } = await this.pool.query<{ doc: User }>(
      `SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND doc->>'installId' = $3
       AND doc->>'installId' IS NOT NULL ORDER BY updated_at DESC LIMIT 1`,
      [tenant.projectId, tenant.live, installId],
    );
    return rows[0]?.doc ?? null;
  }

  async get(tenant: Tenant, id: string): Promise<User | null> {
    const { rows } = await this.pool.query<{ doc: User }>(
      `SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND (id = $3 OR user_id = $3 OR device_id = $3)
       ORDER BY (id = $3) DESC, (user_id = $3) DESC, updated_at DESC LIMIT 1`,
      [tenant.projectId, tenant.live, id],
    );
    return rows[0]?.doc ?? null;
  }

  async save(user: User): Promise<void> {
    const version = await inTransaction(this.pool, (c) => saveUserRows(c, user));
    this.nearCache.written({ projectId: user.projectId, live: user.live }, user.id, user, version);
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const user = await this.get(tenant, id);
    if (!user) return false;
    const version = await inTransaction(this.pool, async (c) => {
      await c.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [watchLockKey(tenant)]);
      await c.query('DELETE FROM user_geofences WHERE user_pk = $1', [user.id]);
      // Announced as a write without a location, one version past the last.
      const { rows } = await c.query<{ version: number }>(
        `WITH gone AS (DELETE FROM users WHERE id = $1 RETURNING version)
         SELECT version + 1 AS version, ${announceUserWrite('$3', '$4', "$2 || (version + 1) || ']'")} AS announced
         FROM gone`,
        [user.id, userChangePrefix(tenant, user.id, null), tenant.projectId, tenant.live],
      );
      return rows[0]?.version;
    });
    if (version !== undefined) this.nearCache.written(tenant, user.id, null, version);
    return true;
  }

  async findTrackCandidates(tenant: Tenant, identity: TrackIdentity): Promise<TrackCandidates> {
    return readCandidates(this.pool, tenant, identity);
  }

  /**
   * One transaction: advisory locks on the identity (device, then user: a fixed order, so two tracks
   * never wait on each other crosswise) serialise tracks of one user across processes even before
   * its row exists; the candidates are read FOR UPDATE; user and events are written before COMMIT.
   * Tracks that arrive together share the transaction (track-groups.ts, `transaction`).
   */
  trackUpdate<T>(
    tenant: Tenant,
    identity: TrackIdentity,
    compute: (found: TrackCandidates, unit: TrackUnit) => Promise<TrackWrite<T>>,
  ): Promise<T> {
    const scope = `${tenant.projectId}|${tenant.live}`;
    const keys = [`${scope}|d|${identity.deviceId}`];
    if (identity.userId !== null) keys.push(`${scope}|u|${identity.userId}`);
    return new Promise<T>((resolve, reject) =>
      this.groups.add({ scope, keys, tenant, identity, compute, resolve: resolve as (r: unknown) => void, reject }),
    );
  }

  /**
   * A group's tracks in one transaction; any failure (a compute that throws, two tracks taking one
   * trip's lock, a write PostgreSQL refuses) rolls it back and runs each track in one of its own,
   * where the failure stays with the track that caused it. Computes that ran in the group run again:
   * they write only through the transaction. Answers the tracks to put back in the queue.
   */
  private async runGroup(group: QueuedTrack[]): Promise<QueuedTrack[]> {
    let outcome: GroupOutcome;
    try {
      outcome = await this.transaction(group);
    } catch (err) {
      if (group.length === 1) group[0]!.reject(err);
      // Alone, a track is never put back (that takes two reaching one user).
      else for (const t of group) await this.runGroup([t]);
      return [];
    }
    // Committed: nothing from here may send a track to run again.
    for (const { track, user, version, result } of outcome.committed) {
      this.nearCache.written(track.tenant, user.id, user, version);
      track.resolve(result);
    }
    return outcome.putBack;
  }

  /**
   * Two round trips of one statement per track (besides BEGIN and COMMIT), prepared once per
   * connection (prepared-statements.ts): every track's locks (sorted) and every read; then every
   * write. A track whose read reaches a user another track of the group reached (a device track and
   * a userId track of another device, one record) is left out, to run after the commit.
   */
  private async transaction(group: QueuedTrack[]): Promise<GroupOutcome> {
    const { tenant } = group[0]!;
    const c = await this.pool.connect();
    try {
      await ensurePrepared(c);
      const [p, l] = [lit(tenant.projectId), lit(tenant.live)];
      const results = await runBatch(c, [
        ...replanIfDue(c),
        'BEGIN',
        trackBeginSql(
          tenant,
          group.flatMap((t) => t.keys),
        ),
        ...group.map((t) => execute('wb_track_read', [p, l, lit(t.identity.deviceId), lit(t.identity.userId)])),
      ]);
      const reads = results.slice(-group.length) as TrackReadRow[][];
      const reached = new Set<string>();
      const kept: Array<{ track: QueuedTrack; read: TrackRead }> = [];
      const putBack: QueuedTrack[] = [];
      group.forEach((track, i) => {
        const read = parseTrackRead(track.identity, reads[i]!);
        if (read.reached.some((id) => reached.has(id))) putBack.push(track);
        else {
          for (const id of read.reached) reached.add(id);
          kept.push({ track, read });
        }
      });
      const owners = new Map<string, QueuedTrack>();
      const writes: TrackWrite<unknown>[] = [];
      for (const { track, read } of kept) {
        const claim = (key: string) => {
          if ((owners.get(key) ?? track) !== track) throw new GroupConflict(key);
          owners.set(key, track);
        };
        const unit = { client: c, activeTrips: read.activeTrips, claim };
        writes.push(await trackTransaction.run(unit, () => track.compute(read.found, TRACK_UNIT)));
      }
      // Each track's write first, in order (their rows are read back by index), then the outbox rows.
      const written = await runBatch(c, [
        ...writes.map((w) => trackWriteSql(tenant, w.user, w.events)),
        ...writes.flatMap((w) => insertDeliveriesSql(w.deliveries)),
        'COMMIT',
      ]);
      this.committed.transactions++;
      this.committed.tracks += kept.length;
      const committed = kept.map(({ track }, i) => ({
        track,
        user: writes[i]!.user,
        version: (written[i]![0] as { version: number }).version,
        result: writes[i]!.result,
      }));
      return { committed, putBack };
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  async getMany(tenant: Tenant, ids: string[]): Promise<User[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ doc: User }>(
      'SELECT doc FROM users WHERE id = ANY($1::text[]) AND project_id = $2 AND live = $3',
      [ids, tenant.projectId, tenant.live],
    );
    return rows.map((r) => r.doc);
  }

  /**
   * From memory, kept up to date with every process's writes (user-near-cache.ts): a GiST
   * nearest-neighbour scan cost PostgreSQL about 0.4 ms of CPU per search.
   */
  near(tenant: Tenant, near: Position, radiusMeters: number, limit: number, offset: number): Promise<User[]> {
    return this.nearCache.near(tenant, near, radiusMeters, limit, offset);
  }

  async locations(tenant: Tenant): Promise<UserLocation[]> {
    const { rows } = await this.pool.query<{ id: string; loc: Position; md: UserLocation['metadata'] }>(
      `SELECT id, doc->'location' AS loc, doc->'metadata' AS md FROM users
       WHERE project_id = $1 AND live = $2 AND location IS NOT NULL`,
      [tenant.projectId, tenant.live],
    );
    return rows.map((r) => ({ id: r.id, location: r.loc, metadata: r.md ?? null }));
  }

  async idsUpdatedBefore(tenant: Tenant, before: number, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM users WHERE project_id = $1 AND live = $2 AND updated_at < $3
       ORDER BY updated_at LIMIT $4`,
      [tenant.projectId, tenant.live, before, limit],
    );
    return rows.map((r) => r.id);
  }

  listInGeofence(tenant: Tenant, geofenceId: string, page: PageQuery): Promise<Page<User>> {
    return pagedDocs<User>(this.pool, {
      from: `FROM user_geofences m JOIN users u ON u.id = m.user_pk
             WHERE m.project_id = $1 AND m.live = $2 AND m.geofence_id = $3`,
      params: [tenant.projectId, tenant.live, geofenceId],
      timeColumn: 'm.updated_at',
      idColumn: 'm.user_pk',
      page,
    });
  }
}

/** Writes the user row and its memberships; run inside a transaction. Returns the row's new version. */
export async function saveUserRows(c: pg.PoolClient, user: User): Promise<number> {
  const [, written] = await runBatch(c, userRowsSql(user));
  return (written![0] as { version: number }).version;
}

/** The statements that write the user row and replace its memberships. */
function userRowsSql(user: User): string[] {
  const values = [user.id, user.projectId, user.live, user.userId, user.deviceId, user.createdAt, user.updatedAt];
  const tenant = { projectId: user.projectId, live: user.live };
  const announce = lit(userChangePrefix(tenant, user.id, user.location));
  const out = [
    `SELECT pg_advisory_xact_lock_shared(hashtextextended(${lit(watchLockKey(tenant))}, 0))`,
    `WITH upsert AS (
       INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, location, doc)
       VALUES (${values.map(lit).join(', ')}, ${user.location ? `${pointLiteral(user)}::geography` : 'NULL'}, ${lit(user)})
       ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, device_id = excluded.device_id,
         updated_at = excluded.updated_at, location = excluded.location, doc = excluded.doc,
         version = users.version + 1
       RETURNING version)
     SELECT version, ${announceUserWrite(lit(user.projectId), lit(user.live), `${announce} || version || ']'`)} AS announced
     FROM upsert`,
    `DELETE FROM user_geofences WHERE user_pk = ${lit(user.id)}`,
  ];
  if (user.geofences.length > 0) {
    const rows = user.geofences.map((m) => row([user.projectId, user.live, m.geofenceId, user.id, user.updatedAt]));
    out.push(
      `INSERT INTO user_geofences (project_id, live, geofence_id, user_pk, updated_at) VALUES ${rows.join(', ')}`,
    );
  }
  return out;
}

/** A track waiting for its transaction. */
interface QueuedTrack extends GroupableTrack {
  tenant: Tenant;
  identity: TrackIdentity;
  compute: (found: TrackCandidates, unit: TrackUnit) => Promise<TrackWrite<unknown>>;
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
}

/** A group's committed tracks, with what each is answered, and the tracks it left out. */
interface GroupOutcome {
  committed: Array<{ track: QueuedTrack; user: User; version: number; result: unknown }>;
  putBack: QueuedTrack[];
}

/**
 * A track's reads: its candidates, the trips it may touch, and the `_id`s of every user it reaches
 * (its 'r' rows, which include both candidates).
 */
interface TrackRead {
  found: TrackCandidates;
  activeTrips: PrefetchedTrips;
  reached: string[];
}

function parseTrackRead(identity: TrackIdentity, rows: TrackReadRow[]): TrackRead {
  const found: TrackCandidates = { byUserId: null, byDeviceId: null };
  const activeTrips: PrefetchedTrips = {
    userPks: new Set(),
    userIds: new Set(),
    deviceId: identity.deviceId,
    rows: [],
  };
  const reached: string[] = [];
  if (identity.userId !== null) activeTrips.userIds.add(identity.userId);
  for (const r of rows) {
    if (r.k === 't') activeTrips.rows.push(r as PrefetchedTrips['rows'][number]);
    else if (r.k === 'r') {
      activeTrips.userPks.add(r.user_pk as string);
      reached.push(r.user_pk as string);
      if (r.user_id !== null) activeTrips.userIds.add(r.user_id);
    } else if (r.k === 'u') found.byUserId = r.doc as User;
    else found.byDeviceId = r.doc as User;
  }
  return { found, activeTrips, reached };
}

/** A row of `wb_track_read`: a candidate (k 'u' by userId, 'd' by deviceId), a reachable user ('r'), a trip ('t'). */
interface TrackReadRow {
  k: 'u' | 'd' | 'r' | 't';
  doc: User | Trip | null;
  user_pk: string | null;
  user_id: string | null;
  device_id: string | null;
  created_at: number | null;
}

/**
 * The locks of a transaction of tracks (`wb_track_begin`): the tenant's watch lock, then the tracks'
 * identity keys (`<scope>|d|<deviceId>`, `<scope>|u|<userId>`) sorted, so device keys come before
 * user keys and every transaction, in any process, takes them in one order. Exported for
 * bench/pg-track-batching.bench.ts, as `trackWriteSql`.
 */
export function trackBeginSql(tenant: Tenant, keys: readonly string[]): string {
  return execute('wb_track_begin', [
    lit(watchLockKey(tenant)),
    `ARRAY[${[...keys].sort().map(lit).join(', ')}]::text[]`,
  ]);
}

/**
 * The track's writes (`wb_track_write`): the user with its memberships, and its events. Exported for
 * bench/pg-track-batching.bench.ts, which sends the server's own statements.
 */
export function trackWriteSql(tenant: Tenant, user: User, events: readonly LocationEvent[]): string {
  return execute('wb_track_write', [
    lit(user.id),
    lit(user.projectId),
    lit(user.live),
    lit(user.userId),
    lit(user.deviceId),
    lit(user.createdAt),
    lit(user.updatedAt),
    pointLiteral(user),
    lit(user),
    // As `lit(events)`, with the fields the events share printed once (jsonb keeps no key order).
    quote(`[${eventDocuments(events).join(',')}]`),
    lit(userChangePrefix(tenant, user.id, user.location)),
  ]);
}

/** The user's location as an EWKT literal, or NULL. */
function pointLiteral(user: User): string {
  return user.location ? lit(`SRID=4326;POINT(${user.location[0]} ${user.location[1]})`) : 'NULL';
}

async function readCandidates(
  db: pg.Pool | pg.PoolClient,
  tenant: Tenant,
  identity: TrackIdentity,
): Promise<TrackCandidates> {
  // Named: each connection parses and plans these once.
  const one = async (column: 'user_id' | 'device_id', value: string) =>
    (
      await db.query<{ doc: User }>({
        name: `track-candidate-${column}`,
        text: `SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND ${column} = $3 ORDER BY updated_at DESC LIMIT 1`,
        values: [tenant.projectId, tenant.live, value],
      })
    ).rows[0]?.doc ?? null;
  const byUserId = identity.userId === null ? null : await one('user_id', identity.userId);
  if (byUserId) return { byUserId, byDeviceId: null };
  return { byUserId: null, byDeviceId: await one('device_id', identity.deviceId) };
}
