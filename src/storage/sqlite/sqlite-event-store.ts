import type { ConversionCount } from '../../domain/events/conversion.js';
import { type EventVerification, type LocationEvent, withVerification } from '../../domain/events/event.js';
import type { Page } from '../../domain/pagination.js';
import type { ConversionWrite, EventListQuery, EventStore, StreamedEvent } from '../../domain/ports/event-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { eventDocuments } from '../event-document.js';
import { deleteCreatedBefore } from './delete-oldest.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';
import { deliveryRowOps } from './sqlite-delivery-store.js';
import { runOps, type WriteOp } from './write-ops.js';

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

  /** The rowid is the cursor: one writer assigns it in commit order (index events_stream). */
  async readAfter(tenant: Tenant, cursor: string, limit: number): Promise<StreamedEvent[]> {
    const rows = statement(
      this.db,
      'SELECT rowid AS n, doc FROM events WHERE project_id = ? AND live = ? AND rowid > ? ORDER BY rowid LIMIT ?',
    ).all(tenant.projectId, tenant.live ? 1 : 0, Number(cursor), limit) as Array<{ n: number; doc: string }>;
    return rows.map((r) => ({ cursor: String(r.n), event: JSON.parse(r.doc) as LocationEvent }));
  }

  async headCursor(): Promise<string> {
    const row = statement(this.db, 'SELECT max(rowid) AS n FROM events').get() as { n: number | null };
    return String(row.n ?? 0);
  }

  isCursor(text: string): boolean {
    return /^\d{1,15}$/.test(text);
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

  /** No process keeps events, outbox rows or counts in memory: the commit names nothing for others. */
  async logConversion(w: ConversionWrite): Promise<void> {
    const e = w.event;
    writeTransaction(this.db, () => {
      runOps(this.db, [...eventRowOps([e]), ...deliveryRowOps(w.deliveries)]);
      statement(this.db, CONVERSION_COUNT).run(e.projectId, e.live ? 1 : 0, w.day, e.type, w.revenue);
    });
  }

  async setVerification(
    tenant: Tenant,
    id: string,
    verification: EventVerification,
    verifiedPlaceId: string | null,
  ): Promise<LocationEvent | null> {
    return writeTransaction(this.db, () => {
      const found = statement(this.db, 'SELECT doc FROM events WHERE id = ? AND project_id = ? AND live = ?').get(
        id,
        tenant.projectId,
        tenant.live ? 1 : 0,
      ) as { doc: string } | undefined;
      if (!found) return null;
      const event = withVerification(JSON.parse(found.doc) as LocationEvent, verification, verifiedPlaceId);
      statement(this.db, 'UPDATE events SET doc = ? WHERE id = ?').run(JSON.stringify(event), id);
      return event;
    });
  }

  async conversionCounts(tenant: Tenant, fromDay: string, toDay: string): Promise<ConversionCount[]> {
    return statement(
      this.db,
      `SELECT name, day, count, revenue FROM conversion_days
       WHERE project_id = ? AND live = ? AND day >= ? AND day <= ? ORDER BY day, name`,
    ).all(tenant.projectId, tenant.live ? 1 : 0, fromDay, toDay) as ConversionCount[];
  }
}

const CONVERSION_COUNT = `INSERT INTO conversion_days (project_id, live, day, name, count, revenue) VALUES (?, ?, ?, ?, 1, ?)
  ON CONFLICT (project_id, live, day, name) DO UPDATE SET count = count + 1, revenue = revenue + excluded.revenue`;

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
