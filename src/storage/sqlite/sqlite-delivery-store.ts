import type { LocationEvent } from '../../domain/events/event.js';
import type { DeliveryOutcome, DeliveryRecord, DeliveryStore, DueDelivery } from '../../domain/ports/delivery-store.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Delivery } from '../../domain/webhooks/webhook.js';
import { type DeliveryRow, deliveryRecord } from '../delivery-record.js';
import { deleteCreatedBefore } from './delete-oldest.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { statement } from './paged-query.js';
import type { WriteOp } from './write-ops.js';

export class SqliteDeliveryStore implements DeliveryStore {
  constructor(private readonly db: SqliteDb) {}

  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    // Read first: most polls find nothing due, and then take no write lock.
    if (statement(this.db, `SELECT 1 FROM deliveries WHERE ${DUE}`).get({ now }) === undefined) return [];
    const rows = writeTransaction(
      this.db,
      () =>
        statement(
          this.db,
          `UPDATE deliveries SET next_attempt_at = @lease
           WHERE id IN (SELECT id FROM deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT @limit)
           RETURNING id, project_id, live, webhook_id, event_id, attempts`,
        ).all({ now, limit, lease: now + leaseMs }) as ClaimedRow[],
    );
    const event = statement(this.db, 'SELECT doc FROM events WHERE id = ?');
    return rows.map((r) => {
      const doc = event.get(r.event_id) as { doc: string } | undefined;
      return {
        id: r.id,
        projectId: r.project_id,
        live: r.live === 1,
        webhookId: r.webhook_id,
        attempts: r.attempts,
        event: doc ? (JSON.parse(doc.doc) as LocationEvent) : null,
      };
    });
  }

  async settle(outcomes: readonly DeliveryOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    writeTransaction(this.db, () => {
      const update = statement(
        this.db,
        `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
             updated_at = ? WHERE id = ?`,
      );
      for (const o of outcomes)
        update.run(o.status, o.attempts, o.nextAttemptAt, o.lastStatus, o.lastError, o.at, o.id);
    });
  }

  async list(tenant: Tenant, query: { webhookId?: string; limit: number }): Promise<DeliveryRecord[]> {
    const byWebhook = query.webhookId === undefined ? '' : ' AND webhook_id = @w';
    const rows = statement(
      this.db,
      `SELECT * FROM deliveries WHERE project_id = @p AND live = @l${byWebhook}
       ORDER BY created_at DESC, id DESC LIMIT @n`,
    ).all({
      p: tenant.projectId,
      l: tenant.live ? 1 : 0,
      n: query.limit,
      ...(query.webhookId === undefined ? {} : { w: query.webhookId }),
    }) as DeliveryRow[];
    return rows.map(deliveryRecord);
  }

  async countPending(cap: number): Promise<number> {
    return statement(this.db, "SELECT count(*) FROM (SELECT 1 FROM deliveries WHERE status = 'pending' LIMIT ?)")
      .pluck()
      .get(cap) as number;
  }

  async deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    return deleteCreatedBefore(this.db, 'deliveries', tenant, before, limit);
  }
}

/** Pending and due at `@now` (off the partial index `deliveries_due`). */
const DUE = "status = 'pending' AND next_attempt_at <= @now";

interface ClaimedRow {
  id: string;
  project_id: string;
  live: number;
  webhook_id: string;
  event_id: string;
  attempts: number;
}

/** The outbox rows of a write, in its transaction: pending, due at once. */
export function deliveryRowOps(deliveries: readonly Delivery[] | undefined): WriteOp[] {
  if (!deliveries || deliveries.length === 0) return [];
  return deliveries.map((d) => ({
    sql: DELIVERY_INSERT,
    params: [d.id, d.projectId, d.live ? 1 : 0, d.webhookId, d.eventId, d.createdAt, d.createdAt, d.createdAt],
  }));
}

const DELIVERY_INSERT = `INSERT INTO deliveries (id, project_id, live, webhook_id, event_id, status, attempts,
  next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`;
