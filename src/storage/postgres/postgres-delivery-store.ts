import type pg from 'pg';
import type { LocationEvent } from '../../domain/events/event.js';
import type { DeliveryOutcome, DeliveryRecord, DeliveryStore, DueDelivery } from '../../domain/ports/delivery-store.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Delivery } from '../../domain/webhooks/webhook.js';
import { deliveryRecord } from '../delivery-record.js';
import { deleteCreatedBefore } from './delete-oldest.js';
import { row } from './sql-batch.js';

/** The webhook outbox over PostgreSQL: the same table and semantics as `SqliteDeliveryStore`. */
export class PostgresDeliveryStore implements DeliveryStore {
  constructor(private readonly pool: pg.Pool) {}

  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    // SKIP LOCKED: processes polling together each take other rows instead of waiting on each other's.
    const { rows } = await this.pool.query<{
      id: string;
      project_id: string;
      live: boolean;
      webhook_id: string;
      attempts: number;
      doc: LocationEvent | null;
    }>(
      `WITH claimed AS (
         UPDATE deliveries SET next_attempt_at = $3
         WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1
                      ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id, project_id, live, webhook_id, event_id, attempts, next_attempt_at)
       SELECT c.id, c.project_id, c.live, c.webhook_id, c.attempts, e.doc
       FROM claimed c LEFT JOIN events e ON e.id = c.event_id`,
      [now, limit, now + leaseMs],
    );
    return rows.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      live: r.live,
      webhookId: r.webhook_id,
      attempts: r.attempts,
      event: r.doc,
    }));
  }

  async settle(outcomes: readonly DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const rows = outcomes.map((o) =>
      row([o.id, o.status, o.attempts, o.nextAttemptAt, o.lastStatus, o.lastError, o.at]),
    );
    await this.pool.query(
      // Cast: a VALUES column of NULLs alone is text.
      `UPDATE deliveries d SET status = v.status, attempts = v.attempts::int, next_attempt_at = v.next_attempt_at::bigint,
         last_status = v.last_status::int, last_error = v.last_error, updated_at = v.updated_at::bigint
       FROM (VALUES ${rows.join(', ')}) AS v(id, status, attempts, next_attempt_at, last_status, last_error, updated_at)
       WHERE d.id = v.id`,
    );
  }

  async countPending(cap: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM (SELECT 1 FROM deliveries WHERE status = 'pending' LIMIT $1) p",
      [cap],
    );
    return rows[0]!.n;
  }

  async list(tenant: Tenant, query: { webhookId?: string; limit: number }): Promise<DeliveryRecord[]> {
    const params: unknown[] = [tenant.projectId, tenant.live, query.limit];
    if (query.webhookId !== undefined) params.push(query.webhookId);
    const { rows } = await this.pool.query(
      `SELECT * FROM deliveries WHERE project_id = $1 AND live = $2${query.webhookId === undefined ? '' : ' AND webhook_id = $4'}
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      params,
    );
    return rows.map(deliveryRecord);
  }

  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    return deleteCreatedBefore(this.pool, 'deliveries', tenant, before, limit);
  }
}

/** The INSERT of a write's outbox rows (none when there are none), for a batch (see sql-batch.ts). */
export function insertDeliveriesSql(deliveries: readonly Delivery[] | undefined): string[] {
  if (!deliveries || deliveries.length === 0) return [];
  const rows = deliveries.map((d) =>
    row([d.id, d.projectId, d.live, d.webhookId, d.eventId, 'pending', 0, d.createdAt, d.createdAt, d.createdAt]),
  );
  return [
    `INSERT INTO deliveries (id, project_id, live, webhook_id, event_id, status, attempts, next_attempt_at,
       created_at, updated_at) VALUES ${rows.join(', ')}`,
  ];
}
