import { setBounded } from '../../cache/bounded-map.js';
import type { Page } from '../../domain/pagination.js';
import { type Tenant, tenantKey } from '../../domain/tenant.js';
import { isTripActive, type Trip, type TripLocation } from '../../domain/trips/trip.js';
import type { TripListQuery, TripStore, TripWrite } from '../store.js';
import { changeLine } from './commit-changes.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import { eventRowOps } from './sqlite-event-store.js';
import type { OpsCommitter, WriteOp } from './write-ops.js';

const TENANT = 'project_id = @p AND live = @l';
const BUSY_RECHECK_MS = 1000;

export class SqliteTripStore implements TripStore {
  /**
   * Tenants known to have no active trip. Most projects track without trips, and every track asks
   * for its user's active trip: for these tenants it is answered without a store read. A tenant is
   * added by a read that found none while no trip write of this store was in flight, and dropped by
   * any trip write (before it is queued) and by another process's commit (`forgetCached`).
   */
  private readonly withoutActive = new Set<string>();
  private writesInFlight = 0;
  /** When a tenant was last found with active trips: its users without one do not ask again for a second. */
  private readonly busySince = new Map<string, number>();

  constructor(
    private readonly db: SqliteDb,
    /** Trips are saved on every track of a trip: their writes share the tracks' group commits. */
    private readonly commits: OpsCommitter,
    /** Delivers other processes' commits (`forgetCached`) before `withoutActive` answers. */
    private readonly syncExternalChanges: () => void = () => {},
  ) {}

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

  async activeFor(
    tenant: Tenant,
    owner: { userPk: string | null; userId: string | null; deviceId: string | null },
  ): Promise<Trip | null> {
    // A null parameter matches nothing (`= NULL`), so an owner without an id skips that branch. A
    // trip named by a userId belongs to whoever tracks with that userId, not to a device.
    const key = tenantKey(tenant);
    this.syncExternalChanges();
    if (this.withoutActive.has(key)) return null;
    const active = `FROM trips WHERE ${TENANT} AND active = 1`;
    const trip = await this.one(
      `SELECT doc FROM (
         SELECT doc, 0 AS k, created_at ${active} AND user_pk = @u
         UNION ALL SELECT doc, 1, created_at ${active} AND user_pk IS NULL AND user_id = @uid
         UNION ALL SELECT doc, 2, created_at ${active} AND user_pk IS NULL AND user_id IS NULL AND device_id = @d
       ) ORDER BY k, created_at DESC LIMIT 1`,
      tenant,
      { u: owner.userPk, uid: owner.userId, d: owner.deviceId },
    );
    if (trip === null && this.writesInFlight === 0) this.noteIdle(tenant, key);
    return trip;
  }

  async save(trip: Trip, write: TripWrite = {}): Promise<void> {
    this.withoutActive.delete(tenantKey(trip));
    this.writesInFlight++;
    try {
      await this.commits.commitOps(tripOps(trip, write), changeLine('trips', trip, trip.id));
    } finally {
      this.writesInFlight--;
    }
  }

  /** Another process committed: it may have started trips. */
  forgetCached(): void {
    this.withoutActive.clear();
  }

  private noteIdle(tenant: Tenant, key: string): void {
    const now = Date.now();
    if (now - (this.busySince.get(key) ?? Number.NEGATIVE_INFINITY) < BUSY_RECHECK_MS) return;
    const any = statement(this.db, `SELECT 1 FROM trips WHERE ${TENANT} AND active = 1 LIMIT 1`).get(
      tenantParams(tenant),
    );
    if (any === undefined) {
      this.withoutActive.add(key);
      this.busySince.delete(key);
    } else setBounded(this.busySince, key, now, 10_000);
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
    const res = writeTransaction(
      this.db,
      () =>
        statement(
          this.db,
          `UPDATE trips SET status = 'expired', active = 0, doc = json_set(doc, '$.status', 'expired')
         WHERE ${TENANT} AND active = 1 AND updated_at <= @cutoff`,
        ).run({ ...tenantParams(tenant), cutoff: updatedAtOrBefore }),
      changeLine('trips', tenant),
    );
    return res.changes;
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

function tenantParams(tenant: Tenant): Record<string, unknown> {
  return { p: tenant.projectId, l: tenant.live ? 1 : 0 };
}

/** A trip's row, its tracked point when there is one, and the events of the write. */
function tripOps(trip: Trip, write: TripWrite): WriteOp[] {
  const ops: WriteOp[] = [
    {
      sql: `INSERT INTO trips (id, project_id, live, external_id, user_pk, user_id, device_id, status, active,
           destination_tag, destination_external_id, eta_duration, created_at, updated_at, doc)
         VALUES (@id, @p, @l, @externalId, @userPk, @userId, @deviceId, @status, @active,
           @tag, @destExternalId, @eta, @createdAt, @updatedAt, @doc)
         ON CONFLICT(id) DO UPDATE SET external_id = excluded.external_id, user_pk = excluded.user_pk,
           user_id = excluded.user_id, device_id = excluded.device_id, status = excluded.status,
           active = excluded.active, destination_tag = excluded.destination_tag,
           destination_external_id = excluded.destination_external_id, eta_duration = excluded.eta_duration,
           created_at = excluded.created_at, updated_at = excluded.updated_at, doc = excluded.doc`,
      params: {
        id: trip.id,
        p: trip.projectId,
        l: trip.live ? 1 : 0,
        externalId: trip.externalId,
        userPk: trip.userPk,
        userId: trip.userId,
        deviceId: trip.deviceId,
        status: trip.status,
        active: isTripActive(trip) ? 1 : 0,
        tag: trip.destinationGeofenceTag,
        destExternalId: trip.destinationGeofenceExternalId,
        eta: trip.eta?.duration ?? null,
        createdAt: trip.createdAt,
        updatedAt: trip.updatedAt,
        doc: JSON.stringify(trip),
      },
    },
  ];
  if (write.resetLocations) ops.push({ sql: 'DELETE FROM trip_locations WHERE trip_id = ?', params: [trip.id] });
  const loc = write.location;
  if (loc) {
    ops.push({
      sql: 'INSERT INTO trip_locations (trip_id, updated_at, lon, lat) VALUES (?, ?, ?, ?)',
      params: [trip.id, loc.updatedAt, loc.coordinates[0], loc.coordinates[1]],
    });
  }
  if (write.events) ops.push(...eventRowOps(write.events));
  return ops;
}
