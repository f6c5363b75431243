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
 * How long one part of `readInTurns` should hold the event loop. Items differ in size by hundreds of
 * times (a circle fence's 1 KB of JSON against a 10,000-position outline's 400 KB), so a count alone
 * cannot bound a part: ten such outlines took ~130 ms to read and parse in one piece.
 */
const PART_MS = 10;

/**
 * `read(q)`, fetched in parts with a turn of the event loop between them: a store that reads
 * synchronously (better-sqlite3) took 60 ms and more to read and parse 1,000 users with full metadata,
 * holding every other request. The first part is one item; each next one doubles while a part takes
 * under half of `PART_MS`, up to `size`, and halves when one took longer, so a part of large items
 * stays near one item and a part of small ones near `size`. The page is the one a single read gives:
 * parts are chained by their last item's time, as a client pages (parts end only between two times,
 * see `cutPage`), and a last part that would pass `limit` because one run of equal times crosses it is
 * dropped, as the single read would have ended before that run.
 */
export async function readInTurns<T>(
  read: (q: PageQuery) => Promise<Page<T>>,
  q: PageQuery,
  timeOf: (item: T) => number,
  size = 100,
): Promise<Page<T>> {
  const items: T[] = [];
  let before = q.before;
  let partSize = 1;
  for (;;) {
    if (items.length > 0) await nextTurn();
    const started = performance.now();
    const part = await read({ ...q, limit: Math.min(partSize, q.limit - items.length), before });
    const took = performance.now() - started;
    if (took > PART_MS) partSize = Math.max(1, partSize >> 1);
    else if (took < PART_MS / 2) partSize = Math.min(size, partSize * 2);
    if (items.length > 0 && items.length + part.items.length > q.limit) return { items, hasMore: true };
    items.push(...part.items);
    if (!part.hasMore || part.items.length === 0) return { items, hasMore: part.hasMore };
    if (items.length >= q.limit) return { items, hasMore: true };
    before = timeOf(items[items.length - 1]!);
  }
}
