/** Small geometry for drawing and simulating, in [lon, lat] and meters. */

export type LonLat = [number, number];

const EARTH_RADIUS = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

export function distanceMeters(a: LonLat, b: LonLat): number {
  const dLat = rad(b[1] - a[1]);
  const dLon = rad(b[0] - a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A circle's outline as a closed ring of `steps` points (flat approximation: fine below tens of km). */
export function circleRing(center: LonLat, radius: number, steps = 64): LonLat[] {
  const mPerDegLat = 111_195;
  const mPerDegLon = mPerDegLat * Math.cos(rad(center[1]));
  const ring: LonLat[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = (2 * Math.PI * i) / steps;
    ring.push([center[0] + (radius * Math.cos(a)) / mPerDegLon, center[1] + (radius * Math.sin(a)) / mPerDegLat]);
  }
  return ring;
}

/** Points every `step` meters along a line, both ends included. */
export function pointsAlong(line: LonLat[], step: number): LonLat[] {
  if (line.length === 0) return [];
  const out: LonLat[] = [line[0]!];
  let carried = 0;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1]!;
    const b = line[i]!;
    const len = distanceMeters(a, b);
    let at = step - carried;
    while (at <= len) {
      const t = at / len;
      out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
      at += step;
    }
    carried = (carried + len) % step;
  }
  const last = line[line.length - 1]!;
  const prev = out[out.length - 1]!;
  if (prev[0] !== last[0] || prev[1] !== last[1]) out.push(last);
  return out;
}

export interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates: unknown };
  properties: Record<string, unknown>;
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

export const collection = (features: Feature[]): FeatureCollection => ({ type: 'FeatureCollection', features });
export const pointFeature = (p: LonLat, properties: Record<string, unknown> = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: p },
  properties,
});
export const lineFeature = (line: LonLat[], properties: Record<string, unknown> = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'LineString', coordinates: line },
  properties,
});
export const polygonFeature = (ring: LonLat[], properties: Record<string, unknown> = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [ring] },
  properties,
});

/** The corners [[west, south], [east, north]] around every position of the collections, or null. */
export function boundsOf(...collections: FeatureCollection[]): [LonLat, LonLat] | null {
  let w = 180;
  let s = 90;
  let e = -180;
  let n = -90;
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      w = Math.min(w, c[0]);
      e = Math.max(e, c[0]);
      s = Math.min(s, c[1] as number);
      n = Math.max(n, c[1] as number);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  for (const fc of collections) for (const f of fc.features) visit(f.geometry.coordinates);
  return w > e
    ? null
    : [
        [w, s],
        [e, n],
      ];
}
