import { datetime, num, str } from './scalars.js';

/** `limit` of list endpoints (1–1000, default 100). */
export const listLimit = () => num({ min: 1, max: 1000, integer: true }).default(100);

/** `limit` of search endpoints (1–100, default 10). */
export const searchLimit = () => num({ min: 1, max: 100, integer: true }).default(10);

/** `radius` of search endpoints, meters (100–10000, default 1000). */
export const searchRadius = () => num({ min: 100, max: 10_000 }).default(1000);

export const cursor = () => datetime();

/** Path segments that name things (tag, externalId, ids). */
export const pathSegment = () => str({ maxLength: 256 }).required();
