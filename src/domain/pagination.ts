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
