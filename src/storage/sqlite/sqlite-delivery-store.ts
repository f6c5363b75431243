import type { LocationEvent } from '../../domain/events/event.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Delivery } from '../../domain/webhooks/webhook.js';
import type { DeliveryOutcome, DeliveryRecord, DeliveryStatus, DeliveryStore, DueDelivery } from '../store.js';
import { NOTHING_KEPT } from './commit-changes.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { statement } from './paged-query.js';
import type { WriteOp } from './write-ops.js';

/** Outbox rows are kept in no process's memory: their commits name nothing for other processes. */
export class SqliteDeliveryStore implements DeliveryStore {
  constructor(private readonly db: SqliteDb) {}

  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    // Read first: most polls find nothing due, and then take no write lock from the writer thread.
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
      NOTHING_KEPT,
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
    writeTransaction(
      this.db,
      () => {
        const update = statement(
          this.db,
          `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
             updated_at = ? WHERE id = ?`,
        );
        for (const o of outcomes)
          update.run(o.status, o.attempts, o.nextAttemptAt, o.lastStatus, o.lastError, o.at, o.id);
      },
      NOTHING_KEPT,
    );
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

  async deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    // Read first, as the events' sweep does: most sweeps find nothing and then take no write lock.
    const found = statement(
      this.db,
      `SELECT json_group_array(id) AS ids, count(*) AS n FROM (SELECT id FROM deliveries
         WHERE project_id = ? AND live = ? AND created_at < ? ORDER BY created_at LIMIT ?)`,
    ).get(tenant.projectId, tenant.live ? 1 : 0, before, limit) as { ids: string; n: number };
    if (found.n === 0) return 0;
    return writeTransaction(
      this.db,
      () =>
        statement(this.db, 'DELETE FROM deliveries WHERE id IN (SELECT value FROM json_each(?))').run(found.ids)
          .changes,
      NOTHING_KEPT,
    );
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

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** A log row as the domain reads it (also used by the PostgreSQL store, whose columns are the same). */
export function deliveryRecord(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
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
