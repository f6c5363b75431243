import type { Geofence } from '../../domain/geofences/geofence.js';
import type { Page } from '../../domain/pagination.js';
import type { Tenant } from '../../domain/tenant.js';
import { geofenceDocument } from '../geofence-document.js';
import type { GeofenceLifetime, GeofenceListQuery, GeofenceStore } from '../store.js';
import { GroupCommit } from './group-commit.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';

/** Memberships of a deleted fence; by tenant, so that the user_geofences_page index finds them. */
const DELETE_MEMBERSHIPS = 'DELETE FROM user_geofences WHERE project_id = ? AND live = ? AND geofence_id = ?';

export class SqliteGeofenceStore implements GeofenceStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly commits: GroupCommit = new GroupCommit(db),
  ) {}

  /** Joins the next group commit: under load, upserts share one transaction instead of a commit each. */
  async upsert(g: Geofence): Promise<Geofence> {
    let saved = g;
    await this.commits.commit(() => {
      saved = this.write(g);
    });
    return saved;
  }

  /** Runs inside a write transaction: the tag lookup and the write see the same state. */
  private write(g: Geofence): Geofence {
    const existing =
      g.tag !== null && g.externalId !== null
        ? (statement(
            this.db,
            'SELECT id, created_at FROM geofences WHERE project_id = ? AND live = ? AND tag = ? AND external_id = ?',
          ).get(g.projectId, g.live ? 1 : 0, g.tag, g.externalId) as { id: string; created_at: number } | undefined)
        : undefined;
    const saved: Geofence = existing ? { ...g, id: existing.id, createdAt: existing.created_at } : g;
    statement(
      this.db,
      `INSERT INTO geofences (id, project_id, live, tag, external_id, delete_after, created_at, doc)
       VALUES (@id, @p, @l, @tag, @externalId, @deleteAfter, @createdAt, @doc)
       ON CONFLICT(id) DO UPDATE SET delete_after = excluded.delete_after, doc = excluded.doc`,
    ).run({
      id: saved.id,
      p: saved.projectId,
      l: saved.live ? 1 : 0,
      tag: saved.tag,
      externalId: saved.externalId,
      deleteAfter: saved.deleteAfter,
      createdAt: saved.createdAt,
      doc: geofenceDocument(saved),
    });
    return saved;
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

  async lifetimeByTag(tenant: Tenant, tag: string, externalId: string): Promise<GeofenceLifetime | null> {
    const row = statement(
      this.db,
      'SELECT id, delete_after FROM geofences WHERE project_id = ? AND live = ? AND tag = ? AND external_id = ?',
    ).get(tenant.projectId, tenant.live ? 1 : 0, tag, externalId) as
      | { id: string; delete_after: number | null }
      | undefined;
    return row ? { id: row.id, deleteAfter: row.delete_after } : null;
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
    return writeTransaction(this.db, () => {
      const res = statement(this.db, 'DELETE FROM geofences WHERE id = ? AND project_id = ? AND live = ?').run(
        id,
        tenant.projectId,
        tenant.live ? 1 : 0,
      );
      if (res.changes > 0) statement(this.db, DELETE_MEMBERSHIPS).run(tenant.projectId, tenant.live ? 1 : 0, id);
      return res.changes > 0;
    });
  }

  async deleteExpired(now: number): Promise<Array<{ tenant: Tenant; id: string }>> {
    return writeTransaction(this.db, () => {
      const rows = statement(this.db, 'SELECT id, project_id, live FROM geofences WHERE delete_after <= ?').all(
        now,
      ) as Array<{
        id: string;
        project_id: string;
        live: number;
      }>;
      for (const r of rows) {
        statement(this.db, 'DELETE FROM geofences WHERE id = ?').run(r.id);
        statement(this.db, DELETE_MEMBERSHIPS).run(r.project_id, r.live, r.id);
      }
      return rows.map((r) => ({ tenant: { projectId: r.project_id, live: r.live === 1 }, id: r.id }));
    });
  }
}
