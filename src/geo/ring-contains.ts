import type { Position } from './types.js';

/**
 * Whether `(x, y)` lies inside a ring (even-odd rule, planar, in the ring's own degrees): for one-off
 * checks over a few rings. Fences and regions use prepared polygons (`polygon-contains.ts`) instead.
 */
export function ringContains(ring: readonly Position[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
