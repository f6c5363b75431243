import { type LocationEvent, sameUpdate } from '../domain/events/event.js';
import { eventGeofenceJson } from '../domain/events/geofence-events.js';

/** The fields every event of one update has alike: whose, where and when. */
const ORIGIN_FIELDS = new Set([
  'projectId',
  'live',
  'createdAt',
  'actualCreatedAt',
  'user',
  'location',
  'locationAccuracy',
  'replayed',
]);

/**
 * The stored documents of one update's events: for each, the text of `JSON.stringify(e)` with its
 * fields in another order (JSON.parse gives the same event). A track that moves a device across fences
 * stores several events that differ only in id, type, fence and confidence; their user, location and
 * times are printed once for all of them instead of once each.
 */
export function eventDocuments(events: readonly LocationEvent[]): string[] {
  const docs: string[] = [];
  let origin: LocationEvent | undefined;
  let originText = '';
  for (const e of events) {
    if (origin === undefined || !sameUpdate(origin, e)) {
      origin = e;
      originText = printOrigin(e);
    }
    let s = `{"id":${JSON.stringify(e.id)}`;
    const fields = e as unknown as Record<string, unknown>;
    for (const k in fields) if (k !== 'id' && !ORIGIN_FIELDS.has(k)) s += member(k, fields[k]);
    docs.push(`${s}${originText}}`);
  }
  return docs;
}

function printOrigin(e: LocationEvent): string {
  const fields = e as unknown as Record<string, unknown>;
  let s = '';
  for (const k of ORIGIN_FIELDS) s += member(k, fields[k]);
  return s;
}

/**
 * `,"name":value`, or nothing where JSON.stringify leaves the field out (undefined, functions). Names
 * are LocationEvent's own, none needing escapes: quoting each with JSON.stringify was a sixth of the
 * documents' cost.
 */
function member(name: string, value: unknown): string {
  const text = (name === 'geofence' && value ? eventGeofenceJson(value) : JSON.stringify(value)) as string | undefined;
  return text === undefined ? '' : `,"${name}":${text}`;
}
