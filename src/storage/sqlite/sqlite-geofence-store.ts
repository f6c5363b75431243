import { type Geofence, isGeofenceLive } from '../../domain/geofences/geofence.js';
import type { Page } from '../../domain/pagination.js';
import type { GeofenceListQuery, GeofenceStore, GeofenceUpsert } from '../../domain/ports/geofence-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { geofenceDocument } from '../geofence-document.js';
import type { FenceMembers } from './fence-members.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import { runOps, type WriteOp } from './write-ops.js';

/** What holds a tag + externalId (geofences_tag). */
const HOLDER_OF_TAG =
  'SELECT id, delete_after, created_at FROM geofences WHERE project_id = ? AND live = ? AND tag = ? AND external_id = ?';

/** One membership of a deleted fence: the table is keyed by user, and FenceMembers says which users. */
const DELETE_MEMBERSHIP = 'DELETE FROM user_geofences WHERE user_pk = ? AND geofence_id = ?';
/**
 * A deleted fence's memberships when FenceMembers has not been built (a PUT replacing an expired
 * fence, which cannot wait for it inside its transaction): a scan of the table, ~0.1 s a million rows,
 * instead of building the map there.
 */
const DELETE_MEMBERSHIPS_BY_SCAN = 'DELETE FROM user_geofences WHERE geofence_id = ?';

export class SqliteGeofenceStore implements GeofenceStore {
  constructor(
    private readonly db: SqliteDb,
    /** Who is in each fence: the memberships a deleted fence takes with it. */
    private readonly members: FenceMembers,
  ) {}

  /** Finds what holds the tag + externalId inside the write transaction, where no other writer can change it. */
  async upsert(g: Geofence, now: number): Promise<GeofenceUpsert> {
    // Printed before the write lock is taken; again inside only when the fence keeps a stored identity.
    const doc = geofenceDocument(g);
    const written = writeTransaction(this.db, () => this.writeUpsert(g, doc, now));
    if (written.replacedId) this.members.dropFence(written.replacedId);
    return written;
  }

  async upsertMany(gs: readonly Geofence[], now: number): Promise<Array<GeofenceUpsert & { created: boolean }>> {
    const docs = gs.map((g) => geofenceDocument(g));
    const written = writeTransaction(this.db, () =>
      gs.map((g, i) => {
        const w = this.writeUpsert(g, docs[i]!, now);
        return { ...w, created: w.geofence.id === g.id };
      }),
    );
    for (const w of written) if (w.replacedId) this.members.dropFence(w.replacedId);
    return written;
  }

  private writeUpsert(g: Geofence, doc: string, now: number): GeofenceUpsert {
    const holder =
      g.tag === null || g.externalId === null
        ? undefined
        : (statement(this.db, HOLDER_OF_TAG).get(g.projectId, g.live ? 1 : 0, g.tag, g.externalId) as
            | { id: string; delete_after: number | null; created_at: number }
            | undefined);
    let saved = g;
    let replacedId: string | null = null;
    if (holder && !isGeofenceLive({ deleteAfter: holder.delete_after }, now)) {
      this.deleteRows(g, holder.id);
      replacedId = holder.id;
    } else if (holder) saved = { ...g, id: holder.id, createdAt: holder.created_at };
    runOps(this.db, [geofenceRowOp(saved, saved === g ? doc : geofenceDocument(saved))]);
    return { geofence: saved, replacedId };
  }

  async get(tenant: Tenant, id: string): Promise<Geofence | null> {
    const row = statement(this.db, 'SELECT doc FROM geofences WHERE id = ? AND project_id = ? AND live = ?').get(
      id,
      tenant.projectId,
      tenant.live ? 1 : 0,
    ) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Geofence) : null;
  }

  async getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Geofence | null> {
    const row = statement(
      this.db,
      'SELECT doc FROM geofences WHERE project_id = ? AND live = ? AND tag = ? AND external_id = ?',
    ).get(tenant.projectId, tenant.live ? 1 : 0, tag, externalId) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Geofence) : null;
  }

  async list(tenant: Tenant, query: GeofenceListQuery): Promise<Page<Geofence>> {
    const tagCond = query.tag !== undefined ? ' AND tag = @tag' : '';
    return pagedDocs<Geofence>(this.db, {
      from: `FROM geofences WHERE project_id = @p AND live = @l${tagCond}
             AND (delete_after IS NULL OR delete_after > @now)`,
      timeColumn: 'created_at',
      idColumn: 'id',
      params: {
        p: tenant.projectId,
        l: tenant.live ? 1 : 0,
        now: query.now,
        ...(query.tag !== undefined ? { tag: query.tag } : {}),
      },
      page: query,
    });
  }

  async all(tenant: Tenant): Promise<Geofence[]> {
    const rows = statement(this.db, 'SELECT doc FROM geofences WHERE project_id = ? AND live = ?').all(
      tenant.projectId,
      tenant.live ? 1 : 0,
    ) as Array<{ doc: string }>;
    return rows.map((r) => JSON.parse(r.doc) as Geofence);
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    await this.members.ready();
    const deleted = writeTransaction(this.db, () => this.deleteRows(tenant, id));
    if (deleted) this.members.dropFence(id);
    return deleted;
  }

  /** Deletes the tenant's fence `id` and its memberships; inside a write transaction. Whether it was there. */
  private deleteRows(tenant: Tenant, id: string): boolean {
    const live = tenant.live ? 1 : 0;
    const res = statement(this.db, 'DELETE FROM geofences WHERE id = ? AND project_id = ? AND live = ?').run(
      id,
      tenant.projectId,
      live,
    );
    if (res.changes > 0) this.deleteMemberships(id);
    return res.changes > 0;
  }

  private deleteMemberships(fenceId: string): void {
    const members = this.members.ifBuilt(fenceId);
    if (!members) {
      statement(this.db, DELETE_MEMBERSHIPS_BY_SCAN).run(fenceId);
      return;
    }
    const del = statement(this.db, DELETE_MEMBERSHIP);
    for (const userPk of members.keys()) del.run(userPk, fenceId);
  }

  async deleteExpired(now: number): Promise<Array<{ tenant: Tenant; id: string }>> {
    // Read first, and take the write lock only when some fence expired: the sweep runs every minute.
    const rows = statement(this.db, 'SELECT id, project_id, live FROM geofences WHERE delete_after <= ?').all(
      now,
    ) as Array<{ id: string; project_id: string; live: number }>;
    if (rows.length === 0) return [];
    const expired = rows.map((r) => ({ tenant: { projectId: r.project_id, live: r.live === 1 }, id: r.id }));
    await this.members.ready();
    const gone = writeTransaction(this.db, () => {
      const deleted: typeof expired = [];
      for (const fence of expired) {
        const { id } = fence;
        const res = statement(this.db, 'DELETE FROM geofences WHERE id = ? AND delete_after <= ?').run(id, now);
        if (res.changes === 0) continue;
        this.deleteMemberships(id);
        deleted.push(fence);
      }
      return deleted;
    });
    for (const { id } of gone) this.members.dropFence(id);
    return gone;
  }
}

/** The fence's row; one whose tag + externalId another id holds would be refused by geofences_tag. */
function geofenceRowOp(g: Geofence, doc: string): WriteOp {
  return {
    sql: `INSERT INTO geofences (id, project_id, live, tag, external_id, delete_after, created_at, doc)
       VALUES (@id, @p, @l, @tag, @externalId, @deleteAfter, @createdAt, @doc)
       ON CONFLICT(id) DO UPDATE SET delete_after = excluded.delete_after, doc = excluded.doc`,
    params: {
      id: g.id,
      p: g.projectId,
      l: g.live ? 1 : 0,
      tag: g.tag,
      externalId: g.externalId,
      deleteAfter: g.deleteAfter,
      createdAt: g.createdAt,
      doc,
    },
  };
}
