import { presentInsights, storedInsights } from '../../domain/insights/insights-tracker.js';
import { storedPlace } from '../../domain/places/places-tracker.js';
import type { User } from '../../domain/users/user.js';
import { compact, iso, point } from './wire.js';

/**
 * The spec's User. `geofences` carries the fences the user is in, as the caller resolves them (the
 * full fence objects); `extra` adds fields computed by features (trip, place, regions, insights).
 */
export function presentUser(u: User, geofences: unknown[] = [], extra: Record<string, unknown> = {}) {
  return compact({
    _id: u.id,
    live: u.live,
    userId: u.userId,
    deviceId: u.deviceId,
    installId: u.installId,
    description: u.description,
    metadata: u.metadata,
    location: u.location ? point(u.location) : null,
    locationAccuracy: u.locationAccuracy,
    foreground: u.foreground,
    stopped: u.stopped,
    deviceType: u.deviceType,
    ip: u.ip,
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
    geofences,
    // What Insights learnt, as last stored (the track response's own copy, in `extra`, wins).
    ...(u.state.insights ? { insights: presentInsights(storedInsights(u.state.insights)) } : {}),
    // The place the Places feature last put the user at (the track response's own copy, in `extra`, wins).
    ...(u.state.places ? { place: storedPlace(u.state.places) } : {}),
    ...extra,
  });
}

const NO_FENCES = '"geofences":[]';

/**
 * The text of each user's JSON around its `geofences` array, or null when it cannot be cut there. By
 * the user object: searches return the same stored users over and over (see `UserLocationRegistry`),
 * and a user is never modified in place (a track writes a new object), so an entry needs no invalidation.
 */
const parts = new WeakMap<User, readonly [string, string] | null>();

/**
 * `JSON.stringify(presentUser(u, geofences))`, the fences given as the text of their JSON array (see
 * `GeofenceJson`): one serialisation of the user, with the array spliced in where `[]` was printed.
 */
export function userJson(u: User, geofencesJson: string): string {
  let p = parts.get(u);
  if (p === undefined) {
    p = splitAtFences(u);
    parts.set(u, p);
  }
  if (p === null) return JSON.stringify({ ...presentUser(u), geofences: JSON.parse(geofencesJson) });
  return `${p[0]}"geofences":${geofencesJson}${p[1]}`;
}

function splitAtFences(u: User): readonly [string, string] | null {
  const o = presentUser(u);
  const text = JSON.stringify(o);
  // `geofences` is the last field but for those the user's stored state adds, in this order.
  const after =
    o.insights === undefined && o.place === undefined
      ? '}'
      : `,${JSON.stringify({ insights: o.insights, place: o.place }).slice(1)}`;
  const at = text.length - after.length - NO_FENCES.length;
  if (!text.startsWith(NO_FENCES, at) || !text.endsWith(after)) return null;
  return [text.slice(0, at), after];
}
