/**
 * How two edges of a ring meet, from coordinates in degrees laid out as `xs[k], ys[k]` for vertex
 * `k`; edge `k` runs from vertex `k` to vertex `k + 1`. Planar, with exact float predicates (no
 * tolerance): edges that miss each other by any margin at all do not meet.
 *
 * `cross`: the edges pass through each other; `touch`: one ends on the other; `overlap`: collinear.
 */
export type ContactKind = 'cross' | 'touch' | 'overlap';

/** Twice the signed area of a, b, c: positive when c lies left of the line from a to b. */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function opposite(a: number, b: number): boolean {
  return (a > 0 && b < 0) || (a < 0 && b > 0);
}

/** Whether collinear point c lies within the closed box of segment a–b. */
function within(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
}

/** How non-adjacent edges i and j meet, or null when they do not: any contact counts. */
export function contactKind(i: number, j: number, xs: Float64Array, ys: Float64Array): ContactKind | null {
  const ax = xs[i]!;
  const ay = ys[i]!;
  const bx = xs[i + 1]!;
  const by = ys[i + 1]!;
  const cx = xs[j]!;
  const cy = ys[j]!;
  const dx = xs[j + 1]!;
  const dy = ys[j + 1]!;
  const o1 = orient(cx, cy, dx, dy, ax, ay);
  const o2 = orient(cx, cy, dx, dy, bx, by);
  const o3 = orient(ax, ay, bx, by, cx, cy);
  const o4 = orient(ax, ay, bx, by, dx, dy);
  if (o1 === 0 && o2 === 0) {
    // Same line: compare the two spans along the axis on which edge i is longer.
    const useX = Math.abs(bx - ax) >= Math.abs(by - ay);
    const lo = Math.max(Math.min(useX ? ax : ay, useX ? bx : by), Math.min(useX ? cx : cy, useX ? dx : dy));
    const hi = Math.min(Math.max(useX ? ax : ay, useX ? bx : by), Math.max(useX ? cx : cy, useX ? dx : dy));
    return hi > lo ? 'overlap' : hi === lo ? 'touch' : null;
  }
  // Sign tests, not products: a product of two tiny orientations can underflow to 0.
  if (opposite(o1, o2) && opposite(o3, o4)) return 'cross';
  const touches =
    (o1 === 0 && within(cx, cy, dx, dy, ax, ay)) ||
    (o2 === 0 && within(cx, cy, dx, dy, bx, by)) ||
    (o3 === 0 && within(ax, ay, bx, by, cx, cy)) ||
    (o4 === 0 && within(ax, ay, bx, by, dx, dy));
  return touches ? 'touch' : null;
}

/**
 * Edges i and j that share vertex `s` (their other ends being `p` and `q`): they may meet there, and
 * only a fold back along the same line (a spike) counts.
 */
export function foldKind(s: number, p: number, q: number, xs: Float64Array, ys: Float64Array): 'overlap' | null {
  const ux = xs[p]! - xs[s]!;
  const uy = ys[p]! - ys[s]!;
  const vx = xs[q]! - xs[s]!;
  const vy = ys[q]! - ys[s]!;
  return ux * vy - uy * vx === 0 && ux * vx + uy * vy > 0 ? 'overlap' : null;
}
