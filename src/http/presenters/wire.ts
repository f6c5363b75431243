import type { Position } from '../../geo/types.js';

/** ISO 8601 with milliseconds and Z, as every SDK parses it. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | undefined;
export function iso(ms: number | null): string | undefined {
  return ms === null ? undefined : new Date(ms).toISOString();
}

export function point(p: Position): { type: 'Point'; coordinates: Position } {
  return { type: 'Point', coordinates: p };
}

/** Drops null and undefined fields: unset fields are left out of responses rather than sent as null. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}
