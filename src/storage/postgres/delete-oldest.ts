import type pg from 'pg';
import type { Tenant } from '../../domain/tenant.js';

/**
 * Deletes up to `limit` of a tenant's rows of `table` created before `before`, oldest first (the
 * retention sweep's batch, off the table's page index); returns how many.
 */
export async function deleteCreatedBefore(
  pool: pg.Pool,
  table: 'events' | 'deliveries',
  tenant: Tenant,
  before: number,
  limit: number,
): Promise<number> {
  const res = await pool.query(
    `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table}
       WHERE project_id = $1 AND live = $2 AND created_at < $3 ORDER BY created_at LIMIT $4)`,
    [tenant.projectId, tenant.live, before, limit],
  );
  return res.rowCount ?? 0;
}
