import type { Geometry, Position } from 'geojson';

/** The XYZ tile `[x, y]` holding a point at zoom `z` (Web Mercator, latitude clamped to its range). */
export function tileAt(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const clamped = Math.max(-85.0511, Math.min(85.0511, lat));
  const r = (clamped * Math.PI) / 180;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y))];
}

/** Calls `f` on every position of a geometry. */
export function forEachPosition(g: Geometry, f: (p: Position) => void): void {
  switch (g.type) {
    case 'Point':
      f(g.coordinates);
      break;
    case 'LineString':
    case 'MultiPoint':
      g.coordinates.forEach(f);
      break;
    case 'Polygon':
    case 'MultiLineString':
      for (const r of g.coordinates) r.forEach(f);
      break;
    case 'MultiPolygon':
      for (const p of g.coordinates) for (const r of p) r.forEach(f);
      break;
    case 'GeometryCollection':
      for (const c of g.geometries) forEachPosition(c, f);
      break;
  }
}
