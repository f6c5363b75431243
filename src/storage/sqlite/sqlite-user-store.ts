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
import { inGeofence, type User } from '../../domain/users/user.js';
import type { Position } from '../../geo/types.js';
import type { FenceMembers } from './fence-members.js';
import type { GroupCommit } from './group-commit.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import { deliveryRowOps } from './sqlite-delivery-store.js';
import { eventRowOps } from './sqlite-event-store.js';
import { SqliteTrackUnit } from './track-unit.js';
import { runOps, type WriteOp } from './write-ops.js';

/** Identity keys of a tenant, as `findTrackCandidates` looks users up: by userId or by deviceId. */
type IdentityColumn = 'user_id' | 'device_id';

/**
 * A user by `_id`, else userId, else deviceId (newest first). One arm per identity, each on its own
 * index: written with OR, the planner scanned the whole tenant.
 */
/** The expression is the index's (migration 13), so the index serves it. */
const USER_BY_INSTALL_ID = `SELECT doc FROM users WHERE project_id = @p AND live = @l
    AND json_extract(doc, '$.installId') = @id AND json_extract(doc, '$.installId') IS NOT NULL
    ORDER BY updated_at DESC LIMIT 1`;

export const USER_BY_ANY_ID = `SELECT doc FROM (
    SELECT doc, 0 AS k, updated_at FROM users WHERE id = @id AND project_id = @p AND live = @l
    UNION ALL SELECT doc, 1, updated_at FROM users WHERE project_id = @p AND live = @l AND user_id = @id
    UNION ALL SELECT doc, 2, updated_at FROM users WHERE project_id = @p AND live = @l AND device_id = @id
  ) ORDER BY k, updated_at DESC LIMIT 1`;

export class SqliteUserStore implements UserStore {
  constructor(
    private readonly db: SqliteDb,
    /** Who is in each fence; kept by every membership write here (`wrote`). */
    private readonly members: FenceMembers,
    /** Where tracks are committed, several to a transaction. */
    private readonly tracks: GroupCommit,
  ) {}

  async list(tenant: Tenant, page: PageQuery): Promise<Page<User>> {
    return pagedDocs<User>(this.db, {
      from: 'FROM users WHERE project_id = @p AND live = @l',
      timeColumn: 'updated_at',
      idColumn: 'id',
      params: { p: tenant.projectId, l: tenant.live ? 1 : 0 },
      page,
    });
  }

  async get(tenant: Tenant, id: string): Promise<User | null> {
    const row = statement(this.db, USER_BY_ANY_ID).get({ p: tenant.projectId, l: tenant.live ? 1 : 0, id }) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as User) : null;
  }

  async getByInstallId(tenant: Tenant, installId: string): Promise<User | null> {
    const row = statement(this.db, USER_BY_INSTALL_ID).get({
      p: tenant.projectId,
      l: tenant.live ? 1 : 0,
      id: installId,
    }) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as User) : null;
  }

  async save(user: User): Promise<void> {
    writeTransaction(this.db, () => runOps(this.db, userRowsOps(user)));
    // The fences it was in are not read: a reader corrects any it left (FenceMembers).
    this.members.wrote(user.id, user.updatedAt, [], user.geofences);
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const user = await this.get(tenant, id);
    if (!user) return false;
    writeTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM user_geofences WHERE user_pk = ?').run(user.id);
      statement(this.db, 'DELETE FROM users WHERE id = ?').run(user.id);
    });
    this.members.wrote(user.id, user.updatedAt, user.geofences, []);
    return true;
  }

  /**
   * From the fence's members in memory (FenceMembers), checked against the documents read: a member
   * that left, or whose time moved, is corrected and the page cut again (rarely more than once).
   */
  async listInGeofence(tenant: Tenant, geofenceId: string, page: PageQuery): Promise<Page<User>> {
    for (let attempt = 1; ; attempt++) {
      await this.members.ready();
      const cut = this.members.page(geofenceId, page);
      const users = await this.getMany(
        tenant,
        cut.items.map((m) => m.id),
      );
      const byId = new Map(users.map((u) => [u.id, u]));
      let stale = false;
      for (const m of cut.items) {
        const user = byId.get(m.id);
        const inside = user !== undefined && inGeofence(user.geofences, geofenceId);
        if (inside && user.updatedAt === m.t) continue;
        stale = true;
        this.members.correct(geofenceId, m.id, inside ? user.updatedAt : null);
      }
      if (!stale || attempt === 3) {
        const items = cut.items.flatMap((m) => byId.get(m.id) ?? []).filter((u) => inGeofence(u.geofences, geofenceId));
        return { items, hasMore: cut.hasMore };
      }
    }
  }

  async findTrackCandidates(tenant: Tenant, identity: TrackIdentity): Promise<TrackCandidates> {
    const byUserId = identity.userId === null ? null : this.newestWith(tenant, 'user_id', identity.userId);
    if (byUserId) return { byUserId, byDeviceId: null };
    return { byUserId: null, byDeviceId: this.newestWith(tenant, 'device_id', identity.deviceId) };
  }

  private newestWith(tenant: Tenant, column: IdentityColumn, value: string): User | null {
    const row = statement(
      this.db,
      // `+updated_at` keeps the planner on the identity index; sorting by users_page would scan the tenant.
      `SELECT doc FROM users WHERE project_id = ? AND live = ? AND ${column} = ? ORDER BY +updated_at DESC LIMIT 1`,
    ).get(tenant.projectId, tenant.live ? 1 : 0, value) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as User) : null;
  }

  /**
   * SQLite: the caller holds the in-process per-user lock; the user, its trip, events and deliveries
   * are written together, in the group commit of this turn's tracks.
   */
  async trackUpdate<T>(
    tenant: Tenant,
    identity: TrackIdentity,
    compute: (found: TrackCandidates, unit: TrackUnit) => Promise<TrackWrite<T>>,
    known?: TrackCandidates,
  ): Promise<T> {
    const found = known ?? (await this.findTrackCandidates(tenant, identity));
    const unit = new SqliteTrackUnit();
    try {
      const { user, events, deliveries, result } = await compute(found, unit);
      const stored = [found.byUserId, found.byDeviceId].find((u) => u?.id === user.id) ?? null;
      const doc = JSON.stringify(user);
      // The user first: a trip started by this track names it.
      const ops = [
        ...trackedUserOps(user, stored, doc),
        ...unit.ops,
        ...eventRowOps(events),
        ...deliveryRowOps(deliveries),
      ];
      await this.tracks.commit(ops);
      this.members.wrote(user.id, user.updatedAt, stored?.geofences ?? [], user.geofences);
      return result;
    } finally {
      unit.end();
    }
  }

  async getMany(tenant: Tenant, ids: string[]): Promise<User[]> {
    if (ids.length === 0) return [];
    const rows = statement(
      this.db,
      // CROSS JOIN keeps the id list as the outer loop: one primary-key probe per id.
      'SELECT u.doc FROM json_each(@ids) AS j CROSS JOIN users AS u ON u.id = j.value WHERE u.project_id = @p AND u.live = @l',
    ).all({ ids: JSON.stringify(ids), p: tenant.projectId, l: tenant.live ? 1 : 0 }) as Array<{ doc: string }>;
    return rows.map((r) => JSON.parse(r.doc) as User);
  }

  async locations(tenant: Tenant): Promise<UserLocation[]> {
    const rows = statement(
      this.db,
      `SELECT id, json_extract(doc, '$.location') AS loc, json_extract(doc, '$.metadata') AS md FROM users
       WHERE project_id = ? AND live = ? AND json_extract(doc, '$.location') IS NOT NULL`,
    ).all(tenant.projectId, tenant.live ? 1 : 0) as Array<{ id: string; loc: string; md: string | null }>;
    return rows.map((r) => ({
      id: r.id,
      location: JSON.parse(r.loc) as Position,
      metadata: r.md ? JSON.parse(r.md) : null,
    }));
  }

  async idsUpdatedBefore(tenant: Tenant, before: number, limit: number): Promise<string[]> {
    return statement(this.db, USERS_UPDATED_BEFORE)
      .pluck()
      .all(tenant.projectId, tenant.live ? 1 : 0, before, limit) as string[];
  }
}

/**
 * Writes a tracked user; membership rows are rewritten only when the set of fences changed (they
 * hold no time: FenceMembers pages by the user's). `stored` is the user as read, null for a user not
 * yet stored.
 */
function trackedUserOps(user: User, stored: User | null, doc: string): WriteOp[] {
  const before = stored?.geofences ?? null;
  const same =
    before !== null &&
    before.length === user.geofences.length &&
    before.every((m, i) => m.geofenceId === user.geofences[i]?.geofenceId);
  return same ? userRowOps(user, doc, stored) : userRowsOps(user, before !== null, doc, stored);
}

/** The user row and its membership rows, replacing what was stored (`stored`: there may be some). */
export function userRowsOps(
  user: User,
  stored = true,
  doc = JSON.stringify(user),
  read: User | null = null,
): WriteOp[] {
  const ops = userRowOps(user, doc, read);
  if (stored) ops.push({ sql: 'DELETE FROM user_geofences WHERE user_pk = ?', params: [user.id] });
  for (const m of user.geofences) {
    ops.push({
      sql: 'INSERT INTO user_geofences (user_pk, geofence_id) VALUES (?, ?)',
      params: [user.id, m.geofenceId],
    });
  }
  return ops;
}

/** The users least recently updated before a time (the retention sweep's batch), off `users_page`. */
export const USERS_UPDATED_BEFORE =
  'SELECT id FROM users WHERE project_id = ? AND live = ? AND updated_at < ? ORDER BY updated_at LIMIT ?';

const USER_COLUMNS = 'id, project_id, live, user_id, device_id, created_at, updated_at, doc';
const USER_ON_CONFLICT = `ON CONFLICT(id) DO UPDATE SET user_id = excluded.user_id, device_id = excluded.device_id,
    updated_at = excluded.updated_at, doc = excluded.doc`;
const USER_UPSERT = `INSERT INTO users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ${USER_ON_CONFLICT}`;
/** The upsert when the update just before it changed no row. */
const USER_UPSERT_IF_UNCHANGED = `INSERT INTO users (${USER_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() = 0
  ${USER_ON_CONFLICT}`;
const USER_UPDATE_UNCHANGED_IDS = `UPDATE users SET updated_at = ?, doc = ?
  WHERE id = ? AND user_id IS ? AND device_id IS ?`;

/**
 * The user's row. Read before (`read`) with the same userId and deviceId, it is first updated without
 * them: a column that is set, even to its own value, has its index entries rewritten, two random
 * B-tree pages more for each known device's track. The upsert of every column then runs only when that
 * update found no such row (`changes()`: the ids changed or the user was deleted since the read).
 */
function userRowOps(user: User, doc: string, read: User | null): WriteOp[] {
  const params = [
    user.id,
    user.projectId,
    user.live ? 1 : 0,
    user.userId,
    user.deviceId,
    user.createdAt,
    user.updatedAt,
    doc,
  ];
  if (!read || read.id !== user.id || read.userId !== user.userId || read.deviceId !== user.deviceId) {
    return [{ sql: USER_UPSERT, params }];
  }
  return [
    { sql: USER_UPDATE_UNCHANGED_IDS, params: [user.updatedAt, doc, user.id, user.userId, user.deviceId] },
    { sql: USER_UPSERT_IF_UNCHANGED, params },
  ];
}
