import type { Geofence } from '../domain/geofences/geofence.js';
import { polygonJson } from '../geo/polygon-json.js';

/**
 * `JSON.stringify(geofence)`, the stored document, with the outline last and printed by `polygonJson`:
 * the response to the same write prints it again, and the doubles are most of the cost of both.
 */
export function geofenceDocument(g: Geofence): string {
  const rest = JSON.stringify({ ...g, geometry: undefined });
  return `${rest.slice(0, -1)},"geometry":${polygonJson(g.geometry)}}`;
}
