import type { Geofence } from '../domain/geofences/geofence.js';
import { polygonJson } from '../geo/polygon-json.js';

/**
 * `JSON.stringify(geofence)`, the stored document, with the outline last and printed by `polygonJson`
 * (about 4.5 times faster than `JSON.stringify` for circle outlines, whose doubles are most of the cost).
 */
export function geofenceDocument(g: Geofence): string {
  const rest = JSON.stringify({ ...g, geometry: undefined });
  return `${rest.slice(0, -1)},"geometry":${polygonJson(g.geometry)}}`;
}
