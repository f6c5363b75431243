import type { Position, Ring } from '../../geo/types.js';
import type { TravelMode } from './geofence.js';

/**
 * Builds the outer ring of an isochrone fence: the area from which `destination` is reachable by `mode`
 * within `minutes`. Implemented by the road router (src/routing); the geofence service only asks.
 */
export interface IsochroneBuilder {
  ring(destination: Position, minutes: number, mode: TravelMode): Ring;
}
