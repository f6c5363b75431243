import type pg from 'pg';
import type { Beacon } from '../../domain/beacons/beacon.js';
import type { Page } from '../../domain/pagination.js';
import { BeaconConflict, type BeaconListQuery, type BeaconStore } from '../../domain/ports/beacon-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { pagedDocs } from './paged-docs.js';

const UNIQUE_VIOLATION = '23505';

export class PostgresBeaconStore implements BeaconStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(b: Beacon): Promise<void> {
    await this.write(
      `INSERT INTO beacons (id, project_id, live, tag, external_id, uuid, major, minor, created_at, doc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [b.id, b.projectId, b.live, b.tag, b.externalId, b.uuid, b.major, b.minor, b.createdAt, b],
    );
  }

  async replace(b: Beacon): Promise<void> {
    await this.write(
      `UPDATE beacons SET tag = $4, external_id = $5, uuid = $6, major = $7, minor = $8, doc = $9
       WHERE id = $1 AND project_id = $2 AND live = $3`,
      [b.id, b.projectId, b.live, b.tag, b.externalId, b.uuid, b.major, b.minor, b],
    );
  }

  private async write(sql: string, params: unknown[]): Promise<void> {
    try {
      await this.pool.query(sql, params);
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      if (e.code === UNIQUE_VIOLATION) throw new BeaconConflict(e.constraint === 'beacons_tag' ? 'tag' : 'uuid');
      throw err;
    }
  }

  get(tenant: Tenant, id: string): Promise<Beacon | null> {
    return this.one('id = $3', [id], tenant);
  }

  getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Beacon | null> {
    return this.one('tag = $3 AND external_id = $4', [tag, externalId], tenant);
  }

  getByIdentifiers(tenant: Tenant, uuid: string, major: string, minor: string): Promise<Beacon | null> {
    return this.one('uuid = $3 AND major = $4 AND minor = $5', [uuid, major, minor], tenant);
  }

  private async one(cond: string, args: unknown[], tenant: Tenant): Promise<Beacon | null> {
    const { rows } = await this.pool.query<{ doc: Beacon }>(
      `SELECT doc FROM beacons WHERE project_id = $1 AND live = $2 AND ${cond}`,
      [tenant.projectId, tenant.live, ...args],
    );
    return rows[0]?.doc ?? null;
  }

  list(tenant: Tenant, query: BeaconListQuery): Promise<Page<Beacon>> {
    const params: unknown[] = [tenant.projectId, tenant.live];
    let from = 'FROM beacons WHERE project_id = $1 AND live = $2';
    if (query.tag !== undefined) {
      params.push(query.tag);
      from += ` AND tag = $${params.length}`;
    }
    if (query.externalId !== undefined) {
      params.push(query.externalId);
      from += ` AND external_id = $${params.length}`;
    }
    return pagedDocs<Beacon>(this.pool, { from, params, timeColumn: 'created_at', idColumn: 'id', page: query });
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const res = await this.pool.query('DELETE FROM beacons WHERE id = $1 AND project_id = $2 AND live = $3', [
      id,
      tenant.projectId,
      tenant.live,
    ]);
    return (res.rowCount ?? 0) > 0;
  }
}
