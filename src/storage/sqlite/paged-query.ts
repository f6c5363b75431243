import type { Database as SqliteDb, Statement } from 'better-sqlite3';
import { cutPage, type Page, type PageQuery } from '../../domain/pagination.js';

interface PagedQuery {
  /** `FROM ... WHERE ...` with named parameters; `@before`, `@after` and `@floor` are added here. */
  from: string;
  timeColumn: string;
  idColumn: string;
  params: Record<string, unknown>;
  page: PageQuery;
}

/**
 * A newest-first page of `doc` JSON rows with time cursors, exact even when many rows share a
 * millisecond (see `cutPage`). Statements are cached per SQL text by better-sqlite3's caller here.
 */
export function pagedDocs<T>(db: SqliteDb, q: PagedQuery): Page<T> {
  const { limit, before, after } = q.page;
  const conds: string[] = [];
  const params: Record<string, unknown> = { ...q.params, n: limit + 1 };
  if (before !== undefined) {
    conds.push(`${q.timeColumn} < @before`);
    params.before = before;
  }
  if (after !== undefined) {
    conds.push(`${q.timeColumn} > @after`);
    params.after = after;
  }
  const where = conds.length ? ` AND ${conds.join(' AND ')}` : '';
  const order = ` ORDER BY ${q.timeColumn} DESC, ${q.idColumn} DESC`;
  const select = `SELECT doc, ${q.timeColumn} AS t ${q.from}${where}`;
  let rows = statement(db, `${select}${order} LIMIT @n`).all(params) as Array<{ doc: string; t: number }>;
  const last = rows[limit];
  if (last && rows[0]!.t === last.t) {
    // The whole page is one run of equal times: fetch the run entirely so it is not split.
    rows = statement(db, `${select} AND ${q.timeColumn} >= @floor${order}`).all({
      ...params,
      floor: last.t,
    }) as typeof rows;
    rows.push(
      ...(statement(db, `${select} AND ${q.timeColumn} < @floor${order} LIMIT 1`).all({
        ...params,
        floor: last.t,
      }) as typeof rows),
    );
  }
  const page = cutPage(rows, limit, (r) => r.t);
  return { items: page.items.map((r) => JSON.parse(r.doc) as T), hasMore: page.hasMore };
}

const cache = new WeakMap<SqliteDb, Map<string, Statement<unknown[]>>>();

/** A prepared statement, prepared once per database and SQL text. */
export function statement(db: SqliteDb, sql: string): Statement<unknown[]> {
  let byText = cache.get(db);
  if (!byText) {
    byText = new Map();
    cache.set(db, byText);
  }
  let stmt = byText.get(sql);
  if (!stmt) {
    stmt = db.prepare<unknown[]>(sql);
    byText.set(sql, stmt);
  }
  return stmt;
}
