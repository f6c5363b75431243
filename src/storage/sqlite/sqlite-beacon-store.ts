import type { Beacon } from '../../domain/beacons/beacon.js';
import type { Page } from '../../domain/pagination.js';
import { BeaconConflict, type BeaconListQuery, type BeaconStore } from '../../domain/ports/beacon-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';

export class SqliteBeaconStore implements BeaconStore {
  constructor(private readonly db: SqliteDb) {}

  async insert(b: Beacon): Promise<void> {
    this.write(
      `INSERT INTO beacons (id, project_id, live, tag, external_id, uuid, major, minor, created_at, doc)
       VALUES (@id, @p, @l, @tag, @externalId, @uuid, @major, @minor, @createdAt, @doc)`,
      b,
    );
  }

  async replace(b: Beacon): Promise<void> {
    this.write(
      `UPDATE beacons SET tag = @tag, external_id = @externalId, uuid = @uuid, major = @major, minor = @minor, doc = @doc
       WHERE id = @id AND project_id = @p AND live = @l`,
      b,
    );
  }

  private write(sql: string, b: Beacon): void {
    try {
      const run = statement(this.db, sql);
      writeTransaction(this.db, () =>
        run.run({
          id: b.id,
          p: b.projectId,
          l: b.live ? 1 : 0,
          tag: b.tag,
          externalId: b.externalId,
          uuid: b.uuid,
          major: b.major,
          minor: b.minor,
          createdAt: b.createdAt,
          doc: JSON.stringify(b),
        }),
      );
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        const onTag = String((err as Error).message).includes('beacons.tag');
        throw new BeaconConflict(onTag ? 'tag' : 'uuid');
      }
      throw err;
    }
  }

  async get(tenant: Tenant, id: string): Promise<Beacon | null> {
    return this.one('id = ?', [id], tenant);
  }

  async getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Beacon | null> {
    return this.one('tag = ? AND external_id = ?', [tag, externalId], tenant);
  }

  async getByIdentifiers(tenant: Tenant, uuid: string, major: string, minor: string): Promise<Beacon | null> {
    return this.one('uuid = ? AND major = ? AND minor = ?', [uuid, major, minor], tenant);
  }

  private one(cond: string, args: unknown[], tenant: Tenant): Beacon | null {
    const row = statement(this.db, `SELECT doc FROM beacons WHERE ${cond} AND project_id = ? AND live = ?`).get(
      ...args,
      tenant.projectId,
      tenant.live ? 1 : 0,
    ) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Beacon) : null;
  }

  async list(tenant: Tenant, query: BeaconListQuery): Promise<Page<Beacon>> {
    const conds = [
      query.tag !== undefined ? ' AND tag = @tag' : '',
      query.externalId !== undefined ? ' AND external_id = @ext' : '',
    ];
    return pagedDocs<Beacon>(this.db, {
      from: `FROM beacons WHERE project_id = @p AND live = @l${conds.join('')}`,
      timeColumn: 'created_at',
      idColumn: 'id',
      params: {
        p: tenant.projectId,
        l: tenant.live ? 1 : 0,
        ...(query.tag !== undefined ? { tag: query.tag } : {}),
        ...(query.externalId !== undefined ? { ext: query.externalId } : {}),
      },
      page: query,
    });
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const remove = statement(this.db, 'DELETE FROM beacons WHERE id = ? AND project_id = ? AND live = ?');
    const res = writeTransaction(this.db, () => remove.run(id, tenant.projectId, tenant.live ? 1 : 0));
    return res.changes > 0;
  }
}
