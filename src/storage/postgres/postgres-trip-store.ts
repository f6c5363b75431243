import type pg from 'pg';
import type { Page } from '../../domain/pagination.js';
import type { TrackUnit } from '../../domain/ports/track-unit.js';
import type { TripListQuery, TripStore, TripWrite } from '../../domain/ports/trip-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { isTripActive, type Trip, type TripLocation } from '../../domain/trips/trip.js';
import { inTransaction } from './open-pool.js';
import { pagedDocs } from './paged-docs.js';
import { insertDeliveriesSql } from './postgres-delivery-store.js';
import { insertEventsSql } from './postgres-event-store.js';
import { Semaphore } from './semaphore.js';
import { runBatch } from './sql-batch.js';
import { lockForTransaction, lockInTrack, type PrefetchedTrips, trackTransaction } from './track-transaction.js';

const UPSERT = `INSERT INTO trips (id, project_id, live, external_id, user_pk, user_id, device_id, status, active,
    destination_tag, destination_external_id, eta_duration, created_at, updated_at, doc)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
  ON CONFLICT (id) DO UPDATE SET external_id = excluded.external_id, user_pk = excluded.user_pk,
    user_id = excluded.user_id, device_id = excluded.device_id, status = excluded.status, active = excluded.active,
    destination_tag = excluded.destination_tag, destination_external_id = excluded.destination_external_id,
    eta_duration = excluded.eta_duration, created_at = excluded.created_at, updated_at = excluded.updated_at,
    doc = excluded.doc`;

/**
 * Connections that trip locks taken outside a track (PATCH, POST) may hold at once. With the track
 * transaction slots and the LISTEN connection this stays below the pool size, so the reads a lock
 * holder makes always find a connection.
 */
const TRIP_LOCK_SLOTS = 4;

/** Trips over PostgreSQL: the same tables and semantics as `SqliteTripStore`. */
export class PostgresTripStore implements TripStore {
  private readonly lockSlots = new Semaphore(TRIP_LOCK_SLOTS);

  constructor(private readonly pool: pg.Pool) {}

  /**
   * An advisory lock on the trip's externalId, the same in every process. Inside a track it is taken
   * in the track's transaction (held to its commit); elsewhere in a short transaction of its own
   * that holds it while `fn` runs. The trip writes inside `fn` commit on their own, before the lock
   * goes, so the next holder reads them.
   */
  exclusive<T>(tenant: Tenant, externalId: string, fn: () => Promise<T>): Promise<T> {
    const key = `${tenant.projectId}|${tenant.live}|trip|${externalId}`;
    const track = trackTransaction.getStore();
    if (track) return lockInTrack(track, key).then(fn);
    return this.lockSlots.run(() =>
      inTransaction(this.pool, async (c) => {
        await lockForTransaction(c, key);
        return fn();
      }),
    );
  }

  get(tenant: Tenant, id: string): Promise<Trip | null> {
    return this.one('AND (id = $3 OR external_id = $3) ORDER BY (id = $3) DESC LIMIT 1', tenant, [id]);
  }

  getByExternalId(tenant: Tenant, externalId: string): Promise<Trip | null> {
    return this.one('AND external_id = $3', tenant, [externalId]);
  }

  async activeFor(
    tenant: Tenant,
    owner: { userPk: string | null; userId: string | null; deviceId: string | null },
  ): Promise<Trip | null> {
    // Inside a track the transaction's first batch has read the candidates already.
    const prefetched = trackTransaction.getStore()?.activeTrips;
    if (prefetched && covers(prefetched, owner)) return pick(prefetched, owner);
    // One round trip; a null parameter matches nothing, as in SqliteTripStore.activeFor.
    const active = 'FROM trips WHERE project_id = $1 AND live = $2 AND active';
    const { rows } = await this.pool.query<{ doc: Trip }>({
      name: 'trip-active-for',
      text: `SELECT doc FROM (
         SELECT doc, 0 AS k, created_at ${active} AND user_pk = $3
         UNION ALL SELECT doc, 1, created_at ${active} AND user_pk IS NULL AND user_id = $4
         UNION ALL SELECT doc, 2, created_at ${active} AND user_pk IS NULL AND user_id IS NULL AND device_id = $5
       ) candidates ORDER BY k, created_at DESC LIMIT 1`,
      values: [tenant.projectId, tenant.live, owner.userPk, owner.userId, owner.deviceId],
    });
    return rows[0]?.doc ?? null;
  }

  async save(trip: Trip, write: TripWrite = {}, unit?: TrackUnit): Promise<void> {
    this.forgetPrefetched();
    const row = [
      trip.id,
      trip.projectId,
      trip.live,
      trip.externalId,
      trip.userPk,
      trip.userId,
      trip.deviceId,
      trip.status,
      isTripActive(trip),
      trip.destinationGeofenceTag,
      trip.destinationGeofenceExternalId,
      trip.eta?.duration ?? null,
      trip.createdAt,
      trip.updatedAt,
      trip,
    ];
    // A track's trip write goes through the track's own transaction: it commits with the track's user
    // and events or rolls back with them (the trip's lock is that transaction's already).
    const track = unit ? trackTransaction.getStore() : undefined;
    if (!track && !write.location && !write.resetLocations && !write.events?.length) {
      await this.pool.query(UPSERT, row);
      return;
    }
    const writeAll = async (c: pg.PoolClient) => {
      await c.query(UPSERT, row);
      if (write.resetLocations) await c.query('DELETE FROM trip_locations WHERE trip_id = $1', [trip.id]);
      const loc = write.location;
      if (loc) {
        await c.query('INSERT INTO trip_locations (trip_id, updated_at, lon, lat) VALUES ($1, $2, $3, $4)', [
          trip.id,
          loc.updatedAt,
          loc.coordinates[0],
          loc.coordinates[1],
        ]);
      }
      // The events and the deliveries they owe, in one round trip.
      const stored = [...insertEventsSql(write.events ?? []), ...insertDeliveriesSql(write.deliveries)];
      if (stored.length > 0) await runBatch(c, stored);
    };
    if (track) await writeAll(track.client);
    else await inTransaction(this.pool, writeAll);
  }

  async locations(tenant: Tenant, tripIds: string[]): Promise<Map<string, TripLocation[]>> {
    const out = new Map<string, TripLocation[]>(tripIds.map((id) => [id, []]));
    if (tripIds.length === 0) return out;
    const { rows } = await this.pool.query<{ trip_id: string; updated_at: number; lon: number; lat: number }>(
      `SELECT l.trip_id, l.updated_at, l.lon, l.lat FROM trip_locations l JOIN trips t ON t.id = l.trip_id
       WHERE l.trip_id = ANY($1::text[]) AND t.project_id = $2 AND t.live = $3 ORDER BY l.id`,
      [tripIds, tenant.projectId, tenant.live],
    );
    for (const r of rows) out.get(r.trip_id)?.push({ coordinates: [r.lon, r.lat], updatedAt: r.updated_at });
    return out;
  }

  async expireStale(tenant: Tenant, updatedAtOrBefore: number): Promise<number> {
    this.forgetPrefetched();
    const res = await this.pool.query(
      `UPDATE trips SET status = 'expired', active = false, doc = jsonb_set(doc, '{status}', '"expired"')
       WHERE project_id = $1 AND live = $2 AND active AND updated_at <= $3`,
      [tenant.projectId, tenant.live, updatedAtOrBefore],
    );
    return res.rowCount ?? 0;
  }

  async deleteStoppedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    // Locked and rechecked as they go: a trip restarted meanwhile (active again) stays, with its points.
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<{ id: string }>(
        `DELETE FROM trips WHERE id IN (SELECT id FROM trips
           WHERE project_id = $1 AND live = $2 AND created_at < $3 AND updated_at < $3 AND NOT active
           ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
         AND NOT active RETURNING id`,
        [tenant.projectId, tenant.live, before, limit],
      );
      if (rows.length > 0) {
        await c.query('DELETE FROM trip_locations WHERE trip_id = ANY($1::text[])', [rows.map((r) => r.id)]);
      }
      return rows.length;
    });
  }

  async list(tenant: Tenant, q: TripListQuery): Promise<Page<Trip>> {
    const params: unknown[] = [tenant.projectId, tenant.live];
    const arg = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    let from = 'FROM trips WHERE project_id = $1 AND live = $2';
    if (q.active !== undefined) from += ` AND active = ${arg(q.active)}`;
    if (q.statuses?.length) from += ` AND status = ANY(${arg(q.statuses)}::text[])`;
    if (q.destinationGeofenceTag !== undefined) from += ` AND destination_tag = ${arg(q.destinationGeofenceTag)}`;
    if (q.destinationGeofenceExternalId !== undefined)
      from += ` AND destination_external_id = ${arg(q.destinationGeofenceExternalId)}`;
    if (q.user !== undefined) {
      const u = arg(q.user);
      from += ` AND (user_pk = ${u} OR user_id = ${u} OR device_id = ${u})`;
    }
    const page = { limit: q.limit, before: q.createdBefore, after: q.createdAfter };
    if (q.sortBy === 'createdAt')
      return pagedDocs<Trip>(this.pool, { from, params, timeColumn: 'created_at', idColumn: 'id', page });
    if (q.createdBefore !== undefined) from += ` AND created_at < ${arg(q.createdBefore)}`;
    if (q.createdAfter !== undefined) from += ` AND created_at > ${arg(q.createdAfter)}`;
    const { rows } = await this.pool.query<{ doc: Trip }>(
      `SELECT doc ${from} ORDER BY eta_duration ASC NULLS LAST, created_at DESC, id DESC LIMIT ${arg(q.limit + 1)}`,
      params,
    );
    return { items: rows.slice(0, q.limit).map((r) => r.doc), hasMore: rows.length > q.limit };
  }

  /** A trip write inside a track makes the trips its transaction read up front stale. */
  private forgetPrefetched(): void {
    const track = trackTransaction.getStore();
    if (track) track.activeTrips = null;
  }

  private async one(where: string, tenant: Tenant, params: unknown[]): Promise<Trip | null> {
    const { rows } = await this.pool.query<{ doc: Trip }>(
      `SELECT doc FROM trips WHERE project_id = $1 AND live = $2 ${where}`,
      [tenant.projectId, tenant.live, ...params],
    );
    return rows[0]?.doc ?? null;
  }
}

type Owner = { userPk: string | null; userId: string | null; deviceId: string | null };

/**
 * Whether the prefetched trips answer `activeFor(owner)`: the owner is the tracked user, i.e. has the
 * track's deviceId, an app userId the identity reaches (or none), and a `_id` the identity reaches or
 * a new one (which no trip can name yet).
 */
function covers(p: PrefetchedTrips, owner: Owner): boolean {
  return owner.deviceId === p.deviceId && (owner.userId === null || p.userIds.has(owner.userId));
}

/** `activeFor`'s choice among the prefetched rows: the user's own, else waiting by userId, else by deviceId. */
function pick(p: PrefetchedTrips, owner: Owner): Trip | null {
  const rank = (r: PrefetchedTrips['rows'][number]): number => {
    if (owner.userPk !== null && r.user_pk === owner.userPk) return 0;
    if (r.user_pk !== null) return -1;
    if (owner.userId !== null && r.user_id === owner.userId) return 1;
    if (r.user_id === null && owner.deviceId !== null && r.device_id === owner.deviceId) return 2;
    return -1;
  };
  let best: { k: number; row: PrefetchedTrips['rows'][number] } | null = null;
  for (const row of p.rows) {
    const k = rank(row);
    if (k < 0) continue;
    if (!best || k < best.k || (k === best.k && row.created_at > best.row.created_at)) best = { k, row };
  }
  return best?.row.doc ?? null;
}
