import { DomainError, invalidParam } from '../../domain/errors.js';
import { TRIP_MODES, type TripOptions } from '../../domain/trips/trip.js';
import { MAX_TRIP_LEGS, type TripLegInput } from '../../domain/trips/trip-leg.js';
import type { Position } from '../../geo/types.js';
import { isAbsent, param, parseParams } from './param.js';
import { datetime, num, oneOf, str } from './scalars.js';
import { metadata } from './structured.js';

/** A trip's name fields (externalId, destination tag and externalId), also the trip list's filters. */
export const tripName = () => str({ maxLength: 256 });

/** Trip options as every client sends them; `approachingThreshold` may be a string (iOS). */
export const tripOptionFields = {
  destinationGeofenceTag: tripName(),
  destinationGeofenceExternalId: tripName(),
  mode: oneOf(TRIP_MODES, { caseInsensitive: true }),
  metadata: metadata(),
  approachingThreshold: num({ min: 1, max: 1440 }).describe('minutes of ETA at which the trip becomes approaching'),
  scheduledArrivalAt: datetime(),
};

/** One leg's destination fields, flat on the leg or inside its `destination` (as the mobile SDKs send it). */
const legDestinationSpec = {
  destinationGeofenceTag: tripName(),
  destinationGeofenceExternalId: tripName(),
  destinationGeofenceId: tripName(),
  address: str({ maxLength: 1000 }),
  coordinates: param({ type: 'array', items: { type: 'number' } }, parseLonLat),
  arrivalRadius: num({ min: 1, max: 10_000 }).describe('meters'),
};
const legSpec = { stopDuration: num({ min: 0, max: 1440 }).describe('minutes'), metadata: metadata() };

/**
 * A multi-destination trip's stops: an array (or JSON text of one) of legs, each naming exactly one
 * destination: a geofence by tag and externalId or by `destinationGeofenceId`, an `address`, or
 * `coordinates` `[lon, lat]`. Errors name the leg, e.g. `legs[1].destinationGeofenceTag`.
 */
export function tripLegs() {
  const schema = { type: 'array', maxItems: MAX_TRIP_LEGS, items: { type: 'object' } };
  return param(schema, (raw, name): TripLegInput[] | undefined => {
    let value = raw;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        throw invalidParam(name, 'must be an array of legs or a JSON string of one.');
      }
    }
    if (!Array.isArray(value)) throw invalidParam(name, 'must be an array of legs.');
    // The SDKs send `legs: []` on every one-destination trip: no legs.
    if (value.length === 0) return undefined;
    if (value.length > MAX_TRIP_LEGS) throw invalidParam(name, `must have at most ${MAX_TRIP_LEGS} legs.`);
    return value.map((item, i) => readLeg(item, `${name}[${i}]`));
  });
}

function readLeg(item: unknown, name: string): TripLegInput {
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalidParam(name, 'must be a dictionary.');
  const raw = item as Record<string, unknown>;
  const nested = raw.destination && typeof raw.destination === 'object' && !Array.isArray(raw.destination);
  if (!isAbsent(raw.destination) && !nested) throw invalidParam(`${name}.destination`, 'must be a dictionary.');
  const where = nested ? `${name}.destination` : name;
  const dest = within(where, () => parseParams(legDestinationSpec, nested ? raw.destination : raw));
  const rest = within(name, () => parseParams(legSpec, raw));
  const byTag = dest.destinationGeofenceTag !== undefined || dest.destinationGeofenceExternalId !== undefined;
  if (byTag && dest.destinationGeofenceExternalId === undefined)
    throw invalidParam(`${where}.destinationGeofenceExternalId`, 'is required with destinationGeofenceTag.');
  if (byTag && dest.destinationGeofenceTag === undefined)
    throw invalidParam(`${where}.destinationGeofenceTag`, 'is required with destinationGeofenceExternalId.');
  const kinds = [
    byTag,
    dest.destinationGeofenceId !== undefined,
    dest.address !== undefined,
    dest.coordinates !== undefined,
  ];
  const count = kinds.filter(Boolean).length;
  const rule =
    'must name one destination: destinationGeofenceTag with destinationGeofenceExternalId, destinationGeofenceId, address or coordinates.';
  if (count !== 1) throw invalidParam(where, rule);
  if (dest.arrivalRadius !== undefined && dest.coordinates === undefined)
    throw invalidParam(`${where}.arrivalRadius`, 'applies to coordinates destinations only.');
  return { ...dest, ...rest };
}

/** Runs a parse whose errors name a field of `prefix` (`legs[1]` + `address` → `legs[1].address`). */
function within<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (!(err instanceof DomainError) || err.param === undefined) throw err;
    throw new DomainError(err.kind, `${prefix}.${err.param}`, `${prefix}.${err.message}`);
  }
}

/** `[lon, lat]` as the SDKs send a leg's coordinates (numbers, or numeric strings). */
function parseLonLat(raw: unknown, name: string): Position {
  const rule = 'must be [longitude, latitude] with longitude between -180 and 180 and latitude between -90 and 90.';
  if (!Array.isArray(raw) || raw.length < 2) throw invalidParam(name, rule);
  const [lon, lat] = [Number(raw[0]), Number(raw[1])];
  if (typeof raw[0] === 'boolean' || typeof raw[1] === 'boolean' || raw[0] === '' || raw[1] === '')
    throw invalidParam(name, rule);
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || lon < -180 || lon > 180 || lat < -90 || lat > 90)
    throw invalidParam(name, rule);
  return [lon, lat];
}

/** The options that start a trip: POST /v1/trips and track's `tripOptions`. */
export const tripOptionsSpec = { externalId: tripName().required(), ...tripOptionFields, legs: tripLegs() };

/**
 * Reads track's `tripOptions` (an object, or JSON text in form bodies); null when absent. Errors
 * name the nested parameter, e.g. `tripOptions.mode`. The trips step of track takes it from the
 * app's wiring (src/compose.ts), as the wire format of a parameter is the HTTP layer's.
 */
export function readTripOptions(raw: unknown): TripOptions | null {
  if (isAbsent(raw)) return null;
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidParam('tripOptions', 'must be a dictionary or a JSON string of one.');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalidParam('tripOptions', 'must be a dictionary.');
  return within('tripOptions', () => parseParams(tripOptionsSpec, value));
}
