import { type Geofence, isGeofenceEnabled } from '../../domain/geofences/geofence.js';
import { polygonJson } from '../../geo/polygon-json.js';
import { compact, iso, point } from './wire.js';

/** The spec's Geofence. `enabled` reads false once `disableAfter` has passed. */
export function presentGeofence(g: Geofence, now: number, opts: { geometry?: boolean } = {}) {
  return compact({
    ...fieldsBeforeGeometry(g),
    geometry: opts.geometry === false ? undefined : g.geometry,
    ...fieldsAfterGeometry(g, now),
  });
}

/**
 * `JSON.stringify(presentGeofence(g, now))`, with the outline printed by `polygonJson`: right after a
 * write the store has just printed it.
 */
export function presentGeofenceJson(g: Geofence, now: number): string {
  const before = JSON.stringify(compact(fieldsBeforeGeometry(g)));
  const after = JSON.stringify(compact(fieldsAfterGeometry(g, now)));
  return `${before.slice(0, -1)},"geometry":${polygonJson(g.geometry)},${after.slice(1)}`;
}

function fieldsBeforeGeometry(g: Geofence) {
  return {
    _id: g.id,
    createdAt: iso(g.createdAt),
    updatedAt: iso(g.updatedAt),
    live: g.live,
    tag: g.tag,
    externalId: g.externalId,
    description: g.description,
    type: g.type,
    mode: g.mode,
  };
}

function fieldsAfterGeometry(g: Geofence, now: number) {
  return {
    geometryCenter: point(g.geometryCenter),
    geometryRadius: g.geometryRadius,
    metadata: g.metadata,
    userId: g.userId,
    enabled: isGeofenceEnabled(g, now),
    disableAfter: iso(g.disableAfter),
    deleteAfter: iso(g.deleteAfter),
    stopDetection: g.stopDetection,
    dwellThreshold: g.dwellThreshold,
  };
}
