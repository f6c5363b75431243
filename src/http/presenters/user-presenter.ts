import { presentInsights, storedInsights } from '../../domain/insights/insights-tracker.js';
import { storedPlace } from '../../domain/places/places-tracker.js';
import type { User } from '../../domain/users/user.js';
import { compact, iso, isoField, jsonField, point, pointJson } from './wire.js';

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
    source: u.source,
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

/** The fields `presentUser` prints first, in its order, `geofences` last. */
const CORE_FIELDS = new Set([
  '_id',
  'live',
  'userId',
  'deviceId',
  'installId',
  'description',
  'metadata',
  'location',
  'locationAccuracy',
  'foreground',
  'stopped',
  'deviceType',
  'ip',
  'source',
  'createdAt',
  'updatedAt',
  'geofences',
]);

/**
 * `JSON.stringify(presentUser(u, geofences, extra))`, the fences given as the text of their JSON array,
 * printed field by field. For a user printed once (each track saves a new one): building presentUser's
 * object first costs a copy per spread and, in `compact`, a for-in with keyed stores that take V8's slow
 * path, more than the printing itself.
 */
export function userJsonWith(u: User, geofencesJson: string, extra: Record<string, unknown>): string {
  const around = userJsonAround(u, extra);
  if (around === null) return JSON.stringify(presentUser(u, JSON.parse(geofencesJson), extra));
  return `${around[0]}${geofencesJson}${around[1]}`;
}

/**
 * The text of each user's JSON around its `geofences` array. By the user object: searches return the
 * same stored users over and over (see `UserLocationRegistry`), and a user is never modified in place (a
 * track writes a new object), so an entry needs no invalidation.
 */
const parts = new WeakMap<User, readonly [string, string]>();
const NO_EXTRA: Record<string, unknown> = {};

/**
 * `JSON.stringify(presentUser(u, geofences))`, the fences given as the text of their JSON array (see
 * `GeofenceJson`): the user's text around the array is printed once and kept (joined, for the reason
 * `geofenceJson` gives).
 */
export function userJson(u: User, geofencesJson: string): string {
  let p = parts.get(u);
  if (p === undefined) {
    // Without feature fields nothing can stand in for a core field.
    p = userJsonAround(u, NO_EXTRA)!;
    parts.set(u, p);
  }
  return `${p[0]}${geofencesJson}${p[1]}`;
}

/**
 * The text of `presentUser(u, geofences, extra)` before and after its `geofences` array, or null when a
 * feature field named like a core field replaces it in place (rare enough for `presentUser`'s long way).
 */
function userJsonAround(u: User, extra: Record<string, unknown>): readonly [string, string] | null {
  for (const k in extra) if (CORE_FIELDS.has(k)) return null;
  const before = [
    `{"_id":${JSON.stringify(u.id)}`,
    jsonField('live', u.live),
    jsonField('userId', u.userId),
    jsonField('deviceId', u.deviceId),
    jsonField('installId', u.installId),
    jsonField('description', u.description),
    jsonField('metadata', u.metadata),
    u.location ? `,"location":${pointJson(u.location)}` : '',
    jsonField('locationAccuracy', u.locationAccuracy),
    jsonField('foreground', u.foreground),
    jsonField('stopped', u.stopped),
    jsonField('deviceType', u.deviceType),
    jsonField('ip', u.ip),
    jsonField('source', u.source),
    isoField('createdAt', u.createdAt),
    isoField('updatedAt', u.updatedAt),
    ',"geofences":',
  ];
  // The stored state's insights and place keep their place even when `extra` gives their value.
  const insights = Boolean(u.state.insights);
  const place = Boolean(u.state.places);
  const after: string[] = [];
  if (insights)
    after.push(
      jsonField(
        'insights',
        Object.hasOwn(extra, 'insights') ? extra.insights : presentInsights(storedInsights(u.state.insights)),
      ),
    );
  if (place) after.push(jsonField('place', Object.hasOwn(extra, 'place') ? extra.place : storedPlace(u.state.places)));
  for (const k in extra) {
    if ((insights && k === 'insights') || (place && k === 'place')) continue;
    after.push(jsonField(k, extra[k]));
  }
  after.push('}');
  return [before.join(''), after.join('')];
}
