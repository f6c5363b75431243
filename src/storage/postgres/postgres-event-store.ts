import type pg from 'pg';
import type { LocationEvent } from '../../domain/events/event.js';
import type { Page } from '../../domain/pagination.js';
import type { EventListQuery, EventStore } from '../../domain/ports/event-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { deleteCreatedBefore } from './delete-oldest.js';
import { type PagedQuery, pagedDocs } from './paged-docs.js';
import { row } from './sql-batch.js';

export class PostgresEventStore implements EventStore {
  constructor(private readonly pool: pg.Pool) {}

  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>> {
    return pagedDocs<LocationEvent>(this.pool, eventListQuery(tenant, query));
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
