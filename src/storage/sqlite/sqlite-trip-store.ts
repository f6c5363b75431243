import type { Page } from '../../domain/pagination.js';
import type { TrackUnit } from '../../domain/ports/track-unit.js';
import type { TripListQuery, TripStore, TripWrite } from '../../domain/ports/trip-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { KeyedMutex } from '../../domain/tracking/keyed-mutex.js';
import { isTripActive, type Trip, type TripLocation } from '../../domain/trips/trip.js';
import type { TripOwner } from '../../domain/trips/trip-lifecycle.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import { deliveryRowOps } from './sqlite-delivery-store.js';
import { eventRowOps } from './sqlite-event-store.js';
import { sqliteUnit } from './track-unit.js';
import { runOps, type WriteOp } from './write-ops.js';

const TENANT = 'project_id = @p AND live = @l';
/** Active trips last updated at or before `@cutoff`: what expiry ends (off `trips_active_updated`). */
const STALE = `${TENANT} AND active = 1 AND updated_at <= @cutoff`;

export class SqliteTripStore implements TripStore {
  private readonly locks = new KeyedMutex();

  constructor(private readonly db: SqliteDb) {}

  async get(tenant: Tenant, id: string): Promise<Trip | null> {
    return this.one(
      `SELECT doc FROM trips WHERE ${TENANT} AND (id = @id OR external_id = @id) ORDER BY (id = @id) DESC LIMIT 1`,
      tenant,
      { id },
    );
  }

  async getByExternalId(tenant: Tenant, externalId: string): Promise<Trip | null> {
    return this.one(`SELECT doc FROM trips WHERE ${TENANT} AND external_id = @e`, tenant, { e: externalId });
  }

  async activeFor(tenant: Tenant, owner: TripOwner): Promise<Trip | null> {
    // A null parameter matches nothing (`= NULL`), so an owner without an id skips that branch. A
    // trip named by a userId belongs to whoever tracks with that userId, not to a device.
    const active = `FROM trips WHERE ${TENANT} AND active = 1`;
    return this.one(
      `SELECT doc FROM (
         SELECT doc, 0 AS k, created_at, id ${active} AND user_pk = @u
         UNION ALL SELECT doc, 1, created_at, id ${active} AND user_pk IS NULL AND user_id = @uid
         UNION ALL SELECT doc, 2, created_at, id ${active} AND user_pk IS NULL AND user_id IS NULL AND device_id = @d
       ) ORDER BY k, created_at DESC, id DESC LIMIT 1`,
      tenant,
      { u: owner.userPk, uid: owner.userId, d: owner.deviceId },
    );
  }

  async save(trip: Trip, write: TripWrite = {}, unit?: TrackUnit): Promise<void> {
    const ops = tripOps(trip, write);
    const track = sqliteUnit(unit);
    if (track) track.add(ops);
    else writeTransaction(this.db, () => runOps(this.db, ops));
  }

  /**
   * Holds the trip's lock (this process's: SQLite has no row locks to share). For a track's unit the
   * lock is kept until the unit commits, since its trip writes land only then.
   */
  async exclusive<T>(tenant: Tenant, externalId: string, fn: () => Promise<T>, unit?: TrackUnit): Promise<T> {
    const key = `${tenant.projectId}:${tenant.live ? 1 : 0}:${externalId}`;
    const track = sqliteUnit(unit);
    if (!track) return this.locks.run(key, fn);
    if (!track.held.has(key)) track.held.set(key, await this.locks.lock([key]));
    return fn();
  }

  async locations(tenant: Tenant, tripIds: string[]): Promise<Map<string, TripLocation[]>> {
    const out = new Map<string, TripLocation[]>();
    // The tenant check keeps one project from reading another's path by guessing a trip id.
    const select = statement(
      this.db,
      `SELECT l.updated_at AS t, l.lon, l.lat FROM trip_locations l JOIN trips ON trips.id = l.trip_id
       WHERE l.trip_id = @id AND trips.project_id = @p AND trips.live = @l ORDER BY l.rowid`,
    );
    for (const id of tripIds) {
      const rows = select.all({ id, p: tenant.projectId, l: tenant.live ? 1 : 0 }) as Array<{
        t: number;
        lon: number;
        lat: number;
      }>;
      out.set(
        id,
        rows.map((r) => ({ coordinates: [r.lon, r.lat], updatedAt: r.t })),
      );
    }
    return out;
  }

  async expireStale(tenant: Tenant, updatedAtOrBefore: number): Promise<number> {
    const params = { ...tenantParams(tenant), cutoff: updatedAtOrBefore };
    // Read first: most calls (every trip list, every retention sweep) find nothing stale, and then
    // take no write lock.
    if (statement(this.db, `SELECT 1 FROM trips WHERE ${STALE}`).get(params) === undefined) return 0;
    return writeTransaction(
      this.db,
      () =>
        statement(
          this.db,
          `UPDATE trips SET status = 'expired', active = 0, doc = json_set(doc, '$.status', 'expired') WHERE ${STALE}`,
        ).run(params).changes,
    );
  }

  async deleteStoppedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    const params = { ...tenantParams(tenant), before, n: limit };
    if ((statement(this.db, STOPPED_TRIPS_BEFORE).get(params) as { n: number }).n === 0) return 0;
    // Read again under the write lock: a trip restarted meanwhile is active again and stays.
    return writeTransaction(this.db, () => {
      const { ids } = statement(this.db, STOPPED_TRIPS_BEFORE).get(params) as { ids: string };
      statement(this.db, 'DELETE FROM trip_locations WHERE trip_id IN (SELECT value FROM json_each(?))').run(ids);
      return statement(this.db, 'DELETE FROM trips WHERE id IN (SELECT value FROM json_each(?))').run(ids).changes;
    });
  }

  async list(tenant: Tenant, q: TripListQuery): Promise<Page<Trip>> {
    const params: Record<string, unknown> = tenantParams(tenant);
    let conds = '';
    if (q.active !== undefined) conds += ` AND active = ${q.active ? 1 : 0}`;
    if (q.statuses?.length) {
      const names = q.statuses.map((s, i) => {
        params[`s${i}`] = s;
        return `@s${i}`;
      });
      conds += ` AND status IN (${names.join(', ')})`;
    }
    if (q.destinationGeofenceTag !== undefined) {
      params.tag = q.destinationGeofenceTag;
      conds += ' AND destination_tag = @tag';
    }
    if (q.destinationGeofenceExternalId !== undefined) {
      params.dest = q.destinationGeofenceExternalId;
      conds += ' AND destination_external_id = @dest';
    }
    if (q.user !== undefined) {
      params.u = q.user;
      conds += ' AND (user_pk = @u OR user_id = @u OR device_id = @u)';
    }
    const from = `FROM trips WHERE ${TENANT}${conds}`;
    const page = { limit: q.limit, before: q.createdBefore, after: q.createdAfter };
    if (q.sortBy === 'createdAt')
      return pagedDocs<Trip>(this.db, { from, timeColumn: 'created_at', idColumn: 'id', params, page });
    if (q.createdBefore !== undefined) conds += ' AND created_at < @before';
    if (q.createdAfter !== undefined) conds += ' AND created_at > @after';
    const rows = statement(
      this.db,
      `SELECT doc FROM trips WHERE ${TENANT}${conds}
       ORDER BY eta_duration IS NULL, eta_duration ASC, created_at DESC, id DESC LIMIT @n`,
    ).all({ ...params, before: q.createdBefore, after: q.createdAfter, n: q.limit + 1 }) as Array<{ doc: string }>;
    return { items: rows.slice(0, q.limit).map((r) => JSON.parse(r.doc) as Trip), hasMore: rows.length > q.limit };
  }

  private async one(sql: string, tenant: Tenant, params: Record<string, unknown>): Promise<Trip | null> {
    const row = statement(this.db, sql).get({ ...tenantParams(tenant), ...params }) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Trip) : null;
  }
}

/**
 * The ids (a JSON array) of the oldest stopped trips last updated before a time (the retention sweep's
 * batch). A trip is updated no earlier than it was created: the created_at bound lets trips_page find them.
 */
export const STOPPED_TRIPS_BEFORE = `SELECT json_group_array(id) AS ids, count(*) AS n FROM (SELECT id FROM trips
  WHERE ${TENANT} AND created_at < @before AND updated_at < @before AND active = 0
  ORDER BY created_at LIMIT @n)`;

function tenantParams(tenant: Tenant): Record<string, unknown> {
  return { p: tenant.projectId, l: tenant.live ? 1 : 0 };
}

/** The trips columns besides id, tenant and doc, each with its value in a trip. */
const TRIP_COLUMNS: ReadonlyArray<readonly [string, (t: Trip) => unknown]> = [
  ['external_id', (t) => t.externalId],
  ['user_pk', (t) => t.userPk],
  ['user_id', (t) => t.userId],
  ['device_id', (t) => t.deviceId],
  ['status', (t) => t.status],
  ['active', (t) => (isTripActive(t) ? 1 : 0)],
  ['destination_tag', (t) => t.destinationGeofenceTag],
  ['destination_external_id', (t) => t.destinationGeofenceExternalId],
  ['eta_duration', (t) => t.eta?.duration ?? null],
  ['created_at', (t) => t.createdAt],
  ['updated_at', (t) => t.updatedAt],
];

const TRIP_UPSERT = `INSERT INTO trips (id, project_id, live, doc, ${TRIP_COLUMNS.map(([c]) => c).join(', ')})
  VALUES (@id, @project_id, @live, @doc, ${TRIP_COLUMNS.map(([c]) => `@${c}`).join(', ')})
  ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, ${TRIP_COLUMNS.map(([c]) => `${c} = excluded.${c}`).join(', ')}`;

/** A trip's row, inserted or replacing the one with its id. */
function tripRowOp(trip: Trip): WriteOp {
  const params: Record<string, unknown> = {
    id: trip.id,
    doc: JSON.stringify(trip),
    project_id: trip.projectId,
    live: trip.live ? 1 : 0,
  };
  for (const [column, value] of TRIP_COLUMNS) params[column] = value(trip);
  return { sql: TRIP_UPSERT, params };
}

/** A trip's row, its tracked point when there is one, and the events of the write. */
function tripOps(trip: Trip, write: TripWrite): WriteOp[] {
  const ops: WriteOp[] = [tripRowOp(trip)];
  if (write.resetLocations) ops.push({ sql: 'DELETE FROM trip_locations WHERE trip_id = ?', params: [trip.id] });
  const loc = write.location;
  if (loc) {
    ops.push({
      sql: 'INSERT INTO trip_locations (trip_id, updated_at, lon, lat) VALUES (?, ?, ?, ?)',
      params: [trip.id, loc.updatedAt, loc.coordinates[0], loc.coordinates[1]],
    });
  }
  if (write.events) ops.push(...eventRowOps(write.events), ...deliveryRowOps(write.deliveries));
  return ops;
}
