import type { Geofence } from '../../domain/geofences/geofence.js';
import type { Page } from '../../domain/pagination.js';
import type { Tenant } from '../../domain/tenant.js';
import { geofenceDocument } from '../geofence-document.js';
import type { GeofenceLifetime, GeofenceListQuery, GeofenceStore } from '../store.js';
import { changeLine, mergeChanges } from './commit-changes.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import type { OpsCommitter, WriteOp } from './write-ops.js';

/** Memberships of a deleted fence; by tenant, so that the user_geofences_page index finds them. */
const DELETE_MEMBERSHIPS = 'DELETE FROM user_geofences WHERE project_id = ? AND live = ? AND geofence_id = ?';

export class SqliteGeofenceStore implements GeofenceStore {
  constructor(
    private readonly db: SqliteDb,
    /** A group commit on this thread (see SqliteStore). */
    private readonly commits: OpsCommitter,
  ) {}

  /**
   * Writes the fence under the id and createdAt of the fence that holds its tag + externalId, if any.
   * The caller usually knows them (`lifetimeByTag`), and the write goes out at once; when it did not,
   * or another upsert of the tag committed in between, the tag's unique index refuses the row, and the
   * write is redone under the stored identity, read after that commit.
   */
  async upsert(g: Geofence): Promise<Geofence> {
    let saved = g;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commits.commitOps([geofenceRowOp(saved)], changeLine('geofences', saved, saved.id));
        return saved;
      } catch (err) {
        // A tag conflict implies the fence has a tag and an externalId.
        const holder =
          attempt < 3 && isTagConflict(err)
            ? await this.lifetimeByTag({ projectId: g.projectId, live: g.live }, g.tag!, g.externalId!)
            : null;
        if (holder?.createdAt === undefined) throw err;
        saved = { ...g, id: holder.id, createdAt: holder.createdAt };
      }
    }
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
      'SELECT id, delete_after, created_at FROM geofences WHERE project_id = ? AND live = ? AND tag = ? AND external_id = ?',
    ).get(tenant.projectId, tenant.live ? 1 : 0, tag, externalId) as
      | { id: string; delete_after: number | null; created_at: number }
      | undefined;
    return row ? { id: row.id, deleteAfter: row.delete_after, createdAt: row.created_at } : null;
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
    return writeTransaction(
      this.db,
      () => {
        const res = statement(this.db, 'DELETE FROM geofences WHERE id = ? AND project_id = ? AND live = ?').run(
          id,
          tenant.projectId,
          tenant.live ? 1 : 0,
        );
        if (res.changes > 0) statement(this.db, DELETE_MEMBERSHIPS).run(tenant.projectId, tenant.live ? 1 : 0, id);
        return res.changes > 0;
      },
      changeLine('geofences', tenant, id),
    );
  }

  async deleteExpired(now: number): Promise<Array<{ tenant: Tenant; id: string }>> {
    // Read first, and commit only when some fence expired: the sweep runs every minute in every
    // process, and each commit is news to the others (commit_log).
    const rows = statement(this.db, 'SELECT id, project_id, live FROM geofences WHERE delete_after <= ?').all(
      now,
    ) as Array<{ id: string; project_id: string; live: number }>;
    if (rows.length === 0) return [];
    const expired = rows.map((r) => ({ tenant: { projectId: r.project_id, live: r.live === 1 }, id: r.id }));
    return writeTransaction(
      this.db,
      () => {
        const deleted: typeof expired = [];
        for (const fence of expired) {
          const { tenant, id } = fence;
          const res = statement(this.db, 'DELETE FROM geofences WHERE id = ? AND delete_after <= ?').run(id, now);
          if (res.changes === 0) continue;
          statement(this.db, DELETE_MEMBERSHIPS).run(tenant.projectId, tenant.live ? 1 : 0, id);
          deleted.push(fence);
        }
        return deleted;
      },
      mergeChanges(expired.map(({ tenant, id }) => changeLine('geofences', tenant, id))),
    );
  }
}

/** The fence's row; a row whose tag + externalId another id holds is refused by geofences_tag. */
function geofenceRowOp(g: Geofence): WriteOp {
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
      doc: geofenceDocument(g),
    },
  };
}

function isTagConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && String(e.message).includes('geofences.tag');
}
