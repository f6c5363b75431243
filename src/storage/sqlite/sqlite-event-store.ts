import type { LocationEvent } from '../../domain/events/event.js';
import type { Page } from '../../domain/pagination.js';
import type { Tenant } from '../../domain/tenant.js';
import { eventDocuments } from '../event-document.js';
import type { EventListQuery, EventStore } from '../store.js';
import { deleteCreatedBefore } from './delete-oldest.js';
import type { SqliteDb } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import type { WriteOp } from './write-ops.js';

export class SqliteEventStore implements EventStore {
  constructor(private readonly db: SqliteDb) {}

  async list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>> {
    const params: Record<string, unknown> = { p: tenant.projectId, l: tenant.live ? 1 : 0 };
    const types = [...new Set(query.types ?? [])];
    types.forEach((t, i) => {
      params[`t${i}`] = t;
    });
    if (query.userId !== undefined) params.u = query.userId;
    return pagedDocs<LocationEvent>(this.db, {
      from: fromFiltered(types.length, query.userId !== undefined),
      timeColumn: 'created_at',
      idColumn: 'id',
      params,
      page: query,
    });
  }

  async get(tenant: Tenant, id: string): Promise<LocationEvent | null> {
    const row = statement(this.db, 'SELECT doc FROM events WHERE id = ? AND project_id = ? AND live = ?').get(
      id,
      tenant.projectId,
      tenant.live ? 1 : 0,
    ) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as LocationEvent) : null;
  }

  async deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number> {
    return deleteCreatedBefore(this.db, 'events', tenant, before, limit);
  }
}

/**
 * The rows a filtered list reads. Each filter value gets its own arm so that every arm walks one
 * index in time order (a single query with OR or IN would walk the whole tenant's events); SQLite
 * pushes the cursor conditions down into the arms. userId arms may overlap, hence UNION.
 */
function fromFiltered(typeCount: number, byUser: boolean): string {
  const base = 'FROM events WHERE project_id = @p AND live = @l';
  const userConds = byUser ? [' AND user_pk = @u', ' AND user_id = @u'] : [''];
  const typeConds = typeCount > 0 ? Array.from({ length: typeCount }, (_, i) => ` AND type = @t${i}`) : [''];
  const arms = userConds.flatMap((u) => typeConds.map((t) => `${base}${u}${t}`));
  if (arms.length === 1) return arms[0]!;
  const union = byUser ? ' UNION ' : ' UNION ALL ';
  return `FROM (${arms.map((a) => `SELECT id, created_at, doc ${a}`).join(union)}) WHERE 1 = 1`;
}

/** The rows of a track's events, written in the track's unit. */
export function eventRowOps(events: readonly LocationEvent[]): WriteOp[] {
  const docs = eventDocuments(events);
  return events.map((e, i) => ({
    sql: EVENT_INSERT,
    params: [e.id, e.projectId, e.live ? 1 : 0, e.type, e.user.id, e.user.userId, e.createdAt, docs[i]],
  }));
}

const EVENT_INSERT = `INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
