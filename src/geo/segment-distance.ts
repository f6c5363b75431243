/**
 * Squared distance from the origin to the segment from (ax, ay) to (bx, by), in the coordinates' own
 * units: callers project the segment around the point they measure from (meters east and north), so
 * the point sits at the origin. A zero-length segment is its one end.
 */
export function segmentDistanceSquared(ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax;
  const ey = by - ay;
  const length2 = ex * ex + ey * ey;
  let t = length2 > 0 ? -(ax * ex + ay * ey) / length2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const dx = ax + t * ex;
  const dy = ay + t * ey;
  return dx * dx + dy * dy;
}
