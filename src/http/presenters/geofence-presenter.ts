import { type Geofence, isGeofenceEnabled } from '../../domain/geofences/geofence.js';
import { compact, iso, point } from './wire.js';

/** The spec's Geofence. `enabled` reads false once `disableAfter` has passed. */
export function presentGeofence(g: Geofence, now: number, opts: { geometry?: boolean } = {}) {
  return compact({
    _id: g.id,
    createdAt: iso(g.createdAt),
    updatedAt: iso(g.updatedAt),
    live: g.live,
    tag: g.tag,
    externalId: g.externalId,
    description: g.description,
    type: g.type,
    mode: g.mode,
    geometry: opts.geometry === false ? undefined : g.geometry,
    geometryCenter: point(g.geometryCenter),
    geometryRadius: g.geometryRadius,
    metadata: g.metadata,
    userId: g.userId,
    enabled: isGeofenceEnabled(g, now),
    disableAfter: iso(g.disableAfter),
    deleteAfter: iso(g.deleteAfter),
    stopDetection: g.stopDetection,
    dwellThreshold: g.dwellThreshold,
  });
}
