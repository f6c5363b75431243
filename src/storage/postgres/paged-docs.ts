import type pg from 'pg';
import { cutPage, type Page, type PageQuery } from '../../domain/pagination.js';

export interface PagedQuery {
  /** `FROM ... WHERE ...` using $1..$n for `params`. */
  from: string;
  params: unknown[];
  timeColumn: string;
  idColumn: string;
  page: PageQuery;
}

/** A newest-first page of `doc` rows with time cursors, exact across runs of equal times (see cutPage). */
export async function pagedDocs<T>(db: pg.Pool | pg.PoolClient, q: PagedQuery): Promise<Page<T>> {
  const { first, select, order, params, arg } = pageParts(q);
  let rows = (await db.query<{ doc: T; t: number }>(first, params)).rows;
  const last = rows[q.page.limit];
  if (last && rows[0]!.t === last.t) {
    // The whole page is one run of equal times: fetch the run entirely so it is not split.
    params.pop(); // the first statement's LIMIT
    const floor = arg(last.t);
    const run = await db.query<{ doc: T; t: number }>(`${select} AND ${q.timeColumn} >= ${floor}${order}`, params);
    const next = await db.query<{ doc: T; t: number }>(
      `${select} AND ${q.timeColumn} < ${floor}${order} LIMIT 1`,
      params,
    );
    rows = [...run.rows, ...next.rows];
  }
  const page = cutPage(rows, q.page.limit, (r) => r.t);
  return { items: page.items.map((r) => r.doc), hasMore: page.hasMore };
}

/** The first statement `pagedDocs` sends, for tests of its plan. */
export function firstPageSql(q: PagedQuery): { text: string; values: unknown[] } {
  const { first, params } = pageParts(q);
  return { text: first, values: params };
}

function pageParts(q: PagedQuery) {
  const params = [...q.params];
  const arg = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  let where = '';
  if (q.page.before !== undefined) where += ` AND ${q.timeColumn} < ${arg(q.page.before)}`;
  if (q.page.after !== undefined) where += ` AND ${q.timeColumn} > ${arg(q.page.after)}`;
  const select = `SELECT doc, ${q.timeColumn} AS t ${q.from}${where}`;
  const order = ` ORDER BY ${q.timeColumn} DESC, ${q.idColumn} DESC`;
  // The page and one row more, to tell whether there are more.
  const first = `${select}${order} LIMIT ${arg(q.page.limit + 1)}`;
  return { first, select, order, params, arg };
}
