import type { Tenant } from '../../domain/tenant.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { statement } from './paged-query.js';

/** Tables whose rows the retention sweep removes by `created_at` alone. */
export type CreatedTable = 'events' | 'deliveries';

/**
 * The ids (a JSON array) and count of a tenant's oldest rows created before a time, off the table's
 * `(project_id, live, created_at DESC, id DESC)` page index (the retention sweep's batch).
 */
export function createdBeforeSql(table: CreatedTable): string {
  return `SELECT json_group_array(id) AS ids, count(*) AS n FROM (SELECT id FROM ${table}
  WHERE project_id = ? AND live = ? AND created_at < ? ORDER BY created_at LIMIT ?)`;
}

/**
 * Deletes up to `limit` of a tenant's rows created before `before`, oldest first; returns how many.
 * It reads first: most sweeps find nothing, and then take no write lock. The ids read stay right
 * (these rows are only ever deleted).
 */
export function deleteCreatedBefore(
  db: SqliteDb,
  table: CreatedTable,
  tenant: Tenant,
  before: number,
  limit: number,
): number {
  const found = statement(db, createdBeforeSql(table)).get(tenant.projectId, tenant.live ? 1 : 0, before, limit) as {
    ids: string;
    n: number;
  };
  if (found.n === 0) return 0;
  return writeTransaction(
    db,
    () => statement(db, `DELETE FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).run(found.ids).changes,
  );
}
