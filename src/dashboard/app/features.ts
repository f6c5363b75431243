import type { Json } from './api.js';
import { circleRing, type Feature, type LonLat, lineFeature, pointFeature, polygonFeature } from './geo.js';

/** A geofence as the map draws it: its outline (circles as their polygon), with what a click shows. */
export function geofenceFeature(g: Json): Feature {
  const properties = {
    kind: 'geofence',
    id: g._id,
    description: g.description,
    tag: g.tag ?? '',
    externalId: g.externalId ?? '',
    enabled: g.enabled !== false,
  };
  if (g.geometry?.type === 'Polygon') return { type: 'Feature', geometry: g.geometry, properties };
  return polygonFeature(circleRing(g.geometryCenter.coordinates, g.geometryRadius ?? 100), properties);
}

export function userFeature(u: Json): Feature | null {
  const at = u.location?.coordinates as LonLat | undefined;
  if (!at) return null;
  return pointFeature(at, { kind: 'user', id: u._id, userId: u.userId ?? '', deviceId: u.deviceId ?? '' });
}

export function placeFeature(u: Json): Feature | null {
  const at = u.place?.location?.coordinates as LonLat | undefined;
  return at ? pointFeature(at, { kind: 'place', id: u.place._id ?? '', name: u.place.name ?? '' }) : null;
}

/** A trip's route so far and its destination. */
export function tripFeatures(t: Json): Feature[] {
  const out: Feature[] = [];
  const path = ((t.locations ?? []) as Json[]).map((l) => l.coordinates as LonLat);
  if (path.length > 1) out.push(lineFeature(path, { kind: 'trip', id: t._id, externalId: t.externalId ?? '' }));
  const dest = t.destinationLocation?.coordinates as LonLat | undefined;
  if (dest) out.push(pointFeature(dest, { kind: 'trip', id: t._id, externalId: t.externalId ?? '' }));
  return out;
}

/** "12 min, 3.4 km" from a trip's `eta` (duration in minutes, distance in meters). */
export function etaText(t: Json): string {
  if (!t.eta) return 'no ETA';
  const km = t.eta.distance >= 1000 ? `${(t.eta.distance / 1000).toFixed(1)} km` : `${Math.round(t.eta.distance)} m`;
  return `${Math.round(t.eta.duration)} min, ${km}`;
}

/** Whether the trip will arrive after its scheduled time, by the ETA; empty when it cannot tell. */
export function latenessText(t: Json, now = Date.now()): string {
  if (!t.scheduledArrivalAt) return 'not scheduled';
  const scheduled = Date.parse(t.scheduledArrivalAt);
  const arrival = t.arrivedAt ? Date.parse(t.arrivedAt) : t.eta ? now + t.eta.duration * 60_000 : null;
  if (arrival === null) return 'unknown';
  const late = Math.round((arrival - scheduled) / 60_000);
  return late > 0 ? `late by ${late} min` : 'on time';
}

export const when = (iso: string | undefined): string => (iso ? new Date(iso).toLocaleString() : '');
