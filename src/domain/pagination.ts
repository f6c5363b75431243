import { setImmediate as nextTurn } from 'node:timers/promises';

/** A time-cursor page request: newest first, `before`/`after` bound the sort time (epoch ms). */
export interface PageQuery {
  limit: number;
  before?: number;
  after?: number;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/**
 * Cuts a page from rows sorted newest first, fetched with `limit + 1` or more rows. Pages end only
 * between two different times: a cursor is a bare datetime, so a page that ended inside a run of
 * equal times would make the next `before` cursor skip the rest of that run. When one run is longer
 * than the whole page, the run is returned whole (the page is then longer than `limit`).
 */
export function cutPage<T>(rows: T[], limit: number, timeOf: (row: T) => number): Page<T> {
  if (rows.length <= limit) return { items: rows, hasMore: false };
  let end = limit;
  const boundary = timeOf(rows[limit]!);
  while (end > 0 && timeOf(rows[end - 1]!) === boundary) end--;
  if (end === 0) {
    end = limit;
    while (end < rows.length && timeOf(rows[end]!) === boundary) end++;
  }
  return { items: rows.slice(0, end), hasMore: end < rows.length };
}

/**
 * `read(q)`, fetched `size` items at a time with a turn of the event loop between the parts: a store
 * that reads synchronously (better-sqlite3) took 60 ms and more to read and parse 1,000 users with full
 * metadata, holding every other request. The page is the one a single read gives: parts are chained by
 * their last item's time, as a client pages (parts end only between two times, see `cutPage`), and a
 * last part that would pass `limit` because one run of equal times crosses it is dropped, as the single
 * read would have ended before that run.
 */
export async function readInTurns<T>(
  read: (q: PageQuery) => Promise<Page<T>>,
  q: PageQuery,
  timeOf: (item: T) => number,
  size = 100,
): Promise<Page<T>> {
  if (q.limit <= size) return read(q);
  const items: T[] = [];
  let before = q.before;
  for (;;) {
    if (items.length > 0) await nextTurn();
    const part = await read({ ...q, limit: Math.min(size, q.limit - items.length), before });
    if (items.length > 0 && items.length + part.items.length > q.limit) return { items, hasMore: true };
    items.push(...part.items);
    if (!part.hasMore || part.items.length === 0) return { items, hasMore: part.hasMore };
    if (items.length >= q.limit) return { items, hasMore: true };
    before = timeOf(items[items.length - 1]!);
  }
}
