import type { PageQuery } from '../../domain/pagination.js';
import { datetime, num, str } from './scalars.js';

/** `limit` of list endpoints (1–1000, default 100). */
export const listLimit = () => num({ min: 1, max: 1000, integer: true }).default(100);

/** `limit` of search endpoints (1–100, default 10). */
export const searchLimit = () => num({ min: 1, max: 100, integer: true }).default(10);

/** `radius` of search endpoints, meters (100–10000, default 1000). */
export const searchRadius = () => num({ min: 100, max: 10_000 }).default(1000);

export const cursor = () => datetime();

/** The query of a list newest created first: `limit` and the `createdBefore`/`createdAfter` cursors. */
export const createdPageParams = () => ({ limit: listLimit(), createdBefore: cursor(), createdAfter: cursor() });

/** The page that query asks for. */
export function createdPage(query: { limit: number; createdBefore?: number; createdAfter?: number }): PageQuery {
  return { limit: query.limit, before: query.createdBefore, after: query.createdAfter };
}

/** Path segments that name things (tag, externalId, ids). */
export const pathSegment = () => str({ maxLength: 256 }).required();
