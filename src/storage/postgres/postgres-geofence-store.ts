import type pg from 'pg';
import { type Geofence, isGeofenceLive } from '../../domain/geofences/geofence.js';
import type { Page } from '../../domain/pagination.js';
import type { GeofenceListQuery, GeofenceStore, GeofenceUpsert } from '../../domain/ports/geofence-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { polygonJson } from '../../geo/polygon-json.js';
import { geofenceDocument } from '../geofence-document.js';
import type { ChangeNotifier } from './change-notifier.js';
import { pagedDocs } from './paged-docs.js';

export class PostgresGeofenceStore implements GeofenceStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly notifier: ChangeNotifier,
  ) {}

  async upsert(g: Geofence, now: number): Promise<GeofenceUpsert> {
    const replacedId = await this.deleteExpiredHolder(g, now);
    // One statement: insert, or on a tag + externalId clash keep the existing id and createdAt.
    const { rows } = await this.pool.query<{ id: string; created_at: number }>(
      `INSERT INTO geofences (id, project_id, live, tag, external_id, delete_after, created_at, geom, doc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, ST_SetSRID(ST_GeomFromGeoJSON($8), 4326), $9)
       ON CONFLICT (project_id, live, tag, external_id) DO UPDATE SET delete_after = excluded.delete_after,
         geom = excluded.geom,
         doc = excluded.doc || jsonb_build_object('id', geofences.id, 'createdAt', geofences.created_at)
       RETURNING id, created_at`,
      [
        g.id,
        g.projectId,
        g.live,
        g.tag,
        g.externalId,
        g.deleteAfter,
        g.createdAt,
        polygonJson(g.geometry),
        geofenceDocument(g),
      ],
    );
    const row = rows[0]!;
    await this.notifier.notify(this.pool, 'geofences', g, row.id);
    return { geofence: { ...g, id: row.id, createdAt: row.created_at }, replacedId };
  }

  /**
   * One transaction: the expired holders of the batch's tags deleted, then one INSERT ... SELECT FROM
   * unnest for every fence (the domain sends no tag + externalId twice, which ON CONFLICT refuses),
   * and one notification for the tenant: other processes reload its fences once, not once a fence.
   */
  async upsertMany(gs: readonly Geofence[], now: number): Promise<Array<GeofenceUpsert & { created: boolean }>> {
    const first = gs[0];
    if (!first) return [];
    const tenant = { projectId: first.projectId, live: first.live };
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: expired } = await client.query<{ id: string; tag: string; external_id: string }>(
        `DELETE FROM geofences g USING unnest($3::text[], $4::text[]) AS t(tag, external_id)
         WHERE g.project_id = $1 AND g.live = $2 AND g.tag = t.tag AND g.external_id = t.external_id
           AND g.delete_after <= $5
         RETURNING g.id, g.tag, g.external_id`,
        [tenant.projectId, tenant.live, gs.map((g) => g.tag), gs.map((g) => g.externalId), now],
      );
      if (expired.length > 0) {
        await client.query(
          'DELETE FROM user_geofences WHERE project_id = $1 AND live = $2 AND geofence_id = ANY($3::text[])',
          [tenant.projectId, tenant.live, expired.map((r) => r.id)],
        );
      }
      const { rows } = await client.query<{
        id: string;
        created_at: string;
        tag: string;
        external_id: string;
        inserted: boolean;
      }>(
        `INSERT INTO geofences (id, project_id, live, tag, external_id, delete_after, created_at, geom, doc)
         SELECT id, $1, $2, tag, external_id, delete_after, created_at,
           ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326), doc
         FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::jsonb[])
           AS t(id, tag, external_id, delete_after, created_at, geometry, doc)
         ON CONFLICT (project_id, live, tag, external_id) DO UPDATE SET delete_after = excluded.delete_after,
           geom = excluded.geom,
           doc = excluded.doc || jsonb_build_object('id', geofences.id, 'createdAt', geofences.created_at)
         RETURNING id, created_at, tag, external_id, (xmax = 0) AS inserted`,
        [
          tenant.projectId,
          tenant.live,
          gs.map((g) => g.id),
          gs.map((g) => g.tag),
          gs.map((g) => g.externalId),
          gs.map((g) => g.deleteAfter),
          gs.map((g) => g.createdAt),
          gs.map((g) => polygonJson(g.geometry)),
          gs.map((g) => geofenceDocument(g)),
        ],
      );
      await this.notifier.notify(client, 'geofences', tenant);
      await client.query('COMMIT');
      const key = (tag: string | null, externalId: string | null) => `${tag}\u0000${externalId}`;
      const replaced = new Map(expired.map((r) => [key(r.tag, r.external_id), r.id]));
      const written = new Map(rows.map((r) => [key(r.tag, r.external_id), r]));
      return gs.map((g) => {
        const row = written.get(key(g.tag, g.externalId))!;
        return {
          geofence: { ...g, id: row.id, createdAt: Number(row.created_at) },
          replacedId: replaced.get(`${g.tag}\u0000${g.externalId}`) ?? null,
          created: row.inserted,
        };
      });
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** Deletes the fence that holds the tag + externalId if its deleteAfter has passed; returns its id. */
  private async deleteExpiredHolder(g: Geofence, now: number): Promise<string | null> {
    if (g.tag === null || g.externalId === null) return null;
    const { rows } = await this.pool.query<{ id: string; delete_after: string | null }>(
      'SELECT id, delete_after FROM geofences WHERE project_id = $1 AND live = $2 AND tag = $3 AND external_id = $4',
      [g.projectId, g.live, g.tag, g.externalId],
    );
    const holder = rows[0];
    // bigint arrives as text.
    if (!holder) return null;
    const deleteAfter = holder.delete_after === null ? null : Number(holder.delete_after);
    if (isGeofenceLive({ deleteAfter }, now)) return null;
    return (await this.delete({ projectId: g.projectId, live: g.live }, holder.id)) ? holder.id : null;
  }

  async get(tenant: Tenant, id: string): Promise<Geofence | null> {
    const { rows } = await this.pool.query<{ doc: Geofence }>(
      'SELECT doc FROM geofences WHERE id = $1 AND project_id = $2 AND live = $3',
      [id, tenant.projectId, tenant.live],
    );
    return rows[0]?.doc ?? null;
  }

  async getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Geofence | null> {
    const { rows } = await this.pool.query<{ doc: Geofence }>(
      'SELECT doc FROM geofences WHERE project_id = $1 AND live = $2 AND tag = $3 AND external_id = $4',
      [tenant.projectId, tenant.live, tag, externalId],
    );
    return rows[0]?.doc ?? null;
  }

  list(tenant: Tenant, query: GeofenceListQuery): Promise<Page<Geofence>> {
    const params: unknown[] = [tenant.projectId, tenant.live, query.now];
    let from = 'FROM geofences WHERE project_id = $1 AND live = $2 AND (delete_after IS NULL OR delete_after > $3)';
    if (query.tag !== undefined) {
      params.push(query.tag);
      from += ` AND tag = $${params.length}`;
    }
    return pagedDocs<Geofence>(this.pool, { from, params, timeColumn: 'created_at', idColumn: 'id', page: query });
  }

  async all(tenant: Tenant): Promise<Geofence[]> {
    const { rows } = await this.pool.query<{ doc: Geofence }>(
      'SELECT doc FROM geofences WHERE project_id = $1 AND live = $2',
      [tenant.projectId, tenant.live],
    );
    return rows.map((r) => r.doc);
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const res = await this.pool.query('DELETE FROM geofences WHERE id = $1 AND project_id = $2 AND live = $3', [
      id,
      tenant.projectId,
      tenant.live,
    ]);
    if (!res.rowCount) return false;
    await this.pool.query('DELETE FROM user_geofences WHERE project_id = $1 AND live = $2 AND geofence_id = $3', [
      tenant.projectId,
      tenant.live,
      id,
    ]);
    await this.notifier.notify(this.pool, 'geofences', tenant, id);
    return true;
  }

  async deleteExpired(now: number): Promise<Array<{ tenant: Tenant; id: string }>> {
    const { rows } = await this.pool.query<{ id: string; project_id: string; live: boolean }>(
      'DELETE FROM geofences WHERE delete_after <= $1 RETURNING id, project_id, live',
      [now],
    );
    if (rows.length === 0) return [];
    // Through the tenants' page index (memberships are keyed by user).
    await this.pool.query(
      `DELETE FROM user_geofences m USING unnest($1::text[], $2::text[], $3::boolean[]) AS g(id, project_id, live)
       WHERE m.project_id = g.project_id AND m.live = g.live AND m.geofence_id = g.id`,
      [rows.map((r) => r.id), rows.map((r) => r.project_id), rows.map((r) => r.live)],
    );
    for (const r of rows)
      await this.notifier.notify(this.pool, 'geofences', { projectId: r.project_id, live: r.live }, r.id);
    return rows.map((r) => ({ tenant: { projectId: r.project_id, live: r.live }, id: r.id }));
  }
}
