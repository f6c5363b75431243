import type pg from 'pg';
import type { LocationEvent } from '../../domain/events/event.js';
import type { Page } from '../../domain/pagination.js';
import type { Tenant } from '../../domain/tenant.js';
import type { EventListQuery, EventStore } from '../store.js';
import { pagedDocs } from './paged-docs.js';

export class PostgresEventStore implements EventStore {
  constructor(private readonly pool: pg.Pool) {}

  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>> {
    const params: unknown[] = [tenant.projectId, tenant.live];
    let from = 'FROM events WHERE project_id = $1 AND live = $2';
    if (query.types !== undefined && query.types.length > 0) {
      params.push(query.types);
      from += ` AND type = ANY($${params.length}::text[])`;
    }
    if (query.userId !== undefined) {
      params.push(query.userId);
      from += ` AND (user_pk = $${params.length} OR user_id = $${params.length})`;
    }
    return pagedDocs<LocationEvent>(this.pool, { from, params, timeColumn: 'created_at', idColumn: 'id', page: query });
  }

  async get(tenant: Tenant, id: string): Promise<LocationEvent | null> {
    const { rows } = await this.pool.query<{ doc: LocationEvent }>(
      'SELECT doc FROM events WHERE id = $1 AND project_id = $2 AND live = $3',
      [id, tenant.projectId, tenant.live],
    );
    return rows[0]?.doc ?? null;
  }
}

/** Inserts a track's events in one statement; run inside the track's transaction. */
export async function insertEventRows(c: pg.PoolClient, events: readonly LocationEvent[]): Promise<void> {
  if (events.length === 0) return;
  await c.query(
    `INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc)
     SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::jsonb[])`,
    [
      events.map((e) => e.id),
      events.map((e) => e.projectId),
      events.map((e) => e.live),
      events.map((e) => e.type),
      events.map((e) => e.user.id),
      events.map((e) => e.user.userId),
      events.map((e) => e.createdAt),
      events.map((e) => JSON.stringify(e)),
    ],
  );
}
