import { ringContains } from '../geo/ring-contains.js';
import type { Position } from '../geo/types.js';
import type { PolygonCoordinates } from './polygon-file.js';

/**
 * A point inside an area to stand for it in geocoding results, `[lon, lat]`: the area centroid of the
 * largest polygon when that lies inside it (convex-ish shapes), else the middle of the widest span of the
 * largest polygon along its mid latitude (crescents, coastlines with bays). Holes are ignored.
 */
export function labelPoint(geometry: PolygonCoordinates): Position {
  const parts = Array.isArray(geometry[0]?.[0]?.[0]) ? (geometry as Position[][][]) : [geometry as Position[][]];
  let best: Position[] = [];
  let bestArea = -1;
  for (const part of parts) {
    const ring = part[0] ?? [];
    const area = Math.abs(ringArea(ring));
    if (area > bestArea) {
      bestArea = area;
      best = ring;
    }
  }
  if (best.length === 0) return [0, 0];
  const centroid = ringCentroid(best);
  if (centroid && ringContains(best, centroid[0], centroid[1])) return centroid;
  return widestSpanMidpoint(best);
}

function ringArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  }
  return sum / 2;
}

function ringCentroid(ring: Position[]): Position | null {
  const area = ringArea(ring);
  if (area === 0) return null;
  let x = 0;
  let y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const f = ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
    x += (ring[j]![0] + ring[i]![0]) * f;
    y += (ring[j]![1] + ring[i]![1]) * f;
  }
  return [x / (6 * area), y / (6 * area)];
}

function widestSpanMidpoint(ring: Position[]): Position {
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [, y] of ring) {
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  // Nudge off the exact middle so the scan line never passes through a vertex.
  const y = (minY + maxY) / 2 + (maxY - minY) * 1e-7;
  const xs: number[] = [];
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y) xs.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
  }
  xs.sort((a, b) => a - b);
  let bestX = ring[0]![0];
  let bestWidth = -1;
  for (let k = 0; k + 1 < xs.length; k += 2) {
    const width = xs[k + 1]! - xs[k]!;
    if (width > bestWidth) {
      bestWidth = width;
      bestX = (xs[k]! + xs[k + 1]!) / 2;
    }
  }
  return [bestX, y];
}
