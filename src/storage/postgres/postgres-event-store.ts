import type pg from 'pg';
import type { ConversionCount } from '../../domain/events/conversion.js';
import { type EventVerification, type LocationEvent, withVerification } from '../../domain/events/event.js';
import type { Page } from '../../domain/pagination.js';
import type { ConversionWrite, EventListQuery, EventStore, StreamedEvent } from '../../domain/ports/event-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { deleteCreatedBefore } from './delete-oldest.js';
import { inTransaction } from './open-pool.js';
import { type PagedQuery, pagedDocs } from './paged-docs.js';
import { insertDeliveriesSql } from './postgres-delivery-store.js';
import { row, runBatch } from './sql-batch.js';

export class PostgresEventStore implements EventStore {
  constructor(private readonly pool: pg.Pool) {}

  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>> {
    return pagedDocs<LocationEvent>(this.pool, eventListQuery(tenant, query));
  }

  /**
   * The cursor is `<transaction id>.<serial>` (migration events-stream): rows of transactions older
   * than the snapshot's xmin only, all of which have ended, so none can commit later below the cursor.
   */
  async readAfter(tenant: Tenant, cursor: string, limit: number): Promise<StreamedEvent[]> {
    const [tx, seq] = cursor.split('.');
    const { rows } = await this.pool.query<{ c: string; doc: LocationEvent }>(
      `SELECT tx::text || '.' || seq AS c, doc FROM events
       WHERE project_id = $1 AND live = $2 AND (tx, seq) > ($3::xid8, $4::bigint)
         AND tx < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY tx, seq LIMIT $5`,
      [tenant.projectId, tenant.live, tx, seq, limit],
    );
    return rows.map((r) => ({ cursor: r.c, event: r.doc }));
  }

  /** Transactions from the snapshot's xmin on may still commit: the stream starts just before them. */
  async headCursor(): Promise<string> {
    const { rows } = await this.pool.query<{ x: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x');
    return `${rows[0]!.x}.0`;
  }

  isCursor(text: string): boolean {
    return /^\d{1,19}\.\d{1,18}$/.test(text);
  }

  async get(tenant: Tenant, id: string): Promise<LocationEvent | null> {
    const { rows } = await this.pool.query<{ doc: LocationEvent }>(
      'SELECT doc FROM events WHERE id = $1 AND project_id = $2 AND live = $3',
      [id, tenant.projectId, tenant.live],
    );
    return rows[0]?.doc ?? null;
  }

  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    return deleteCreatedBefore(this.pool, 'events', tenant, before, limit);
  }

  async logConversion(w: ConversionWrite): Promise<void> {
    const e = w.event;
    await inTransaction(this.pool, async (c) => {
      await runBatch(c, [...insertEventsSql([e]), ...insertDeliveriesSql(w.deliveries)]);
      await c.query(
        `INSERT INTO conversion_days (project_id, live, day, name, count, revenue) VALUES ($1, $2, $3, $4, 1, $5)
         ON CONFLICT (project_id, live, day, name)
         DO UPDATE SET count = conversion_days.count + 1, revenue = conversion_days.revenue + excluded.revenue`,
        [e.projectId, e.live, w.day, e.type, w.revenue],
      );
    });
  }

  async setVerification(
    tenant: Tenant,
    id: string,
    verification: EventVerification,
    verifiedPlaceId: string | null,
  ): Promise<LocationEvent | null> {
    // Read and written under the row's lock: two verdicts at once leave the later one whole.
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<{ doc: LocationEvent }>(
        'SELECT doc FROM events WHERE id = $1 AND project_id = $2 AND live = $3 FOR UPDATE',
        [id, tenant.projectId, tenant.live],
      );
      if (!rows[0]) return null;
      const event = withVerification(rows[0].doc, verification, verifiedPlaceId);
      await c.query('UPDATE events SET doc = $2 WHERE id = $1', [id, event]);
      return event;
    });
  }

  async conversionCounts(tenant: Tenant, fromDay: string, toDay: string): Promise<ConversionCount[]> {
    const { rows } = await this.pool.query<ConversionCount>(
      `SELECT name, day, count::int AS count, revenue FROM conversion_days
       WHERE project_id = $1 AND live = $2 AND day >= $3 AND day <= $4 ORDER BY day, name`,
      [tenant.projectId, tenant.live, fromDay, toDay],
    );
    return rows;
  }
}

/** The INSERT of a track's events (none when there are none), for a batch (see sql-batch.ts). */
export function insertEventsSql(events: readonly LocationEvent[]): string[] {
  if (events.length === 0) return [];
  const rows = events.map((e) => row([e.id, e.projectId, e.live, e.type, e.user.id, e.user.userId, e.createdAt, e]));
  return [
    `INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc) VALUES ${rows.join(', ')}`,
  ];
}

/**
 * The events page query. One type is matched by equality: PostgreSQL 15 reads an index in order only
 * when no column before the order's holds a list (`= ANY`), so a page of one rare type would sort every
 * event of that type, or walk the tenant's events filtering, instead of reading `events_type_page`
 * backwards a page's length. Exported for the plan tests.
 */
export function eventListQuery(tenant: Tenant, query: EventListQuery): PagedQuery {
  const params: unknown[] = [tenant.projectId, tenant.live];
  let from = 'FROM events WHERE project_id = $1 AND live = $2';
  if (query.types?.length === 1) {
    params.push(query.types[0]);
    from += ` AND type = $${params.length}`;
  } else if ((query.types?.length ?? 0) > 1) {
    params.push(query.types);
    from += ` AND type = ANY($${params.length}::text[])`;
  }
  if (query.userId !== undefined) {
    params.push(query.userId);
    from += ` AND (user_pk = $${params.length} OR user_id = $${params.length})`;
  }
  return { from, params, timeColumn: 'created_at', idColumn: 'id', page: query };
}
