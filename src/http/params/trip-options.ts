import { DomainError, invalidParam } from '../../domain/errors.js';
import { TRIP_MODES, type TripOptions } from '../../domain/trips/trip.js';
import { isAbsent, parseParams } from './param.js';
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

/** The options that start a trip: POST /v1/trips and track's `tripOptions`. */
export const tripOptionsSpec = { externalId: tripName().required(), ...tripOptionFields };

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
  try {
    return parseParams(tripOptionsSpec, value);
  } catch (err) {
    if (!(err instanceof DomainError) || err.param === undefined) throw err;
    throw new DomainError(err.kind, `tripOptions.${err.param}`, `tripOptions.${err.message}`);
  }
}
