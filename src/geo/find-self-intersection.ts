import { type ContactKind, contactKind, foldKind, orient } from './segment-contact.js';
import { SweepStatus } from './sweep-status.js';
import type { Ring } from './types.js';

/** Where a ring meets itself. Edge `e` runs from position `e` to position `e + 1` of the input. */
export interface SelfIntersection {
  first: number;
  second: number;
  /** `cross`: the edges pass through each other; `touch`: one ends on the other; `overlap`: collinear. */
  kind: ContactKind;
}

/** Where two edges of a polygon's rings meet: ring numbers, and edge numbers within each ring. */
export interface RingContact {
  firstRing: number;
  first: number;
  secondRing: number;
  second: number;
  kind: ContactKind;
}

/**
 * A place where a ring of `[lon, lat]` positions in degrees meets itself, or null when it is simple.
 * Unwraps the ring first (as `unwrapRing` does), so a ring over the antimeridian is judged in
 * continuous longitudes. Planar test in degrees with exact float predicates (no tolerance): edges
 * that miss each other by any margin at all do not count.
 *
 * Adjacent edges (including the last and the first of a closed ring) may share their common vertex;
 * they only count when they fold back over each other (a spike). Any contact between non-adjacent
 * edges counts, including a vertex touching another edge and collinear overlap. Consecutive
 * duplicate positions are skipped (their zero-length edge separates nothing). When a ring meets
 * itself in several places, the one named is the first the sweep comes to (see `findRingContact`).
 */
export function findSelfIntersection(ring: Ring): SelfIntersection | null {
  const coords = new Float64Array(ring.length * 2);
  let previous = 0;
  for (let i = 0; i < ring.length; i++) {
    const lon = ring[i]![0];
    const x = i === 0 ? lon : lon - 360 * Math.round((lon - previous) / 360);
    coords[2 * i] = x;
    coords[2 * i + 1] = ring[i]![1];
    previous = x;
  }
  const found = findRingContact(coords, Uint32Array.of(0, ring.length));
  return found && { first: found.first, second: found.second, kind: found.kind };
}

/**
 * A place where the rings of a polygon meet themselves or each other, by the rules of
 * `findSelfIntersection` within each ring; edges of different rings may not meet at all. Rings are
 * read as `PreparedPolygon` lays them out: `lon, lat` pairs in `coords`, ring `r` at positions
 * `ringStart[r]` to `ringStart[r + 1] - 1` (values after the last ring are ignored), already in one
 * continuous longitude range.
 *
 * A Shamos–Hoey sweep: edges enter and leave a sweep line that runs over the positions in
 * (longitude, latitude) order, and each edge is only tested against its neighbours on that line as
 * they change. If any two edges meet, the two that meet at the first such point are neighbours just
 * before it, so the sweep finds a contact whenever there is one, in O(n log n) for n positions. (A
 * test of every pair of edges whose boxes overlap, the check before this one, took 1.6 s on a
 * 10,000-position sawtooth whose boxes all overlap.)
 */
export function findRingContact(coords: Float64Array, ringStart: Uint32Array): RingContact | null {
  const rings = ringStart.length - 1;
  const total = ringStart[rings]!;
  // Consecutive duplicates dropped; `vertexOf` maps each kept vertex back to its input position.
  const xs = new Float64Array(total);
  const ys = new Float64Array(total);
  const vertexOf = new Uint32Array(total);
  const ringOf = new Uint32Array(total);
  const starts = new Uint32Array(rings + 1);
  const closed = new Uint8Array(rings);
  let n = 0;
  for (let r = 0; r < rings; r++) {
    starts[r] = n;
    for (let i = ringStart[r]!; i < ringStart[r + 1]!; i++) {
      const x = coords[2 * i]!;
      const y = coords[2 * i + 1]!;
      if (n > starts[r]! && xs[n - 1] === x && ys[n - 1] === y) continue;
      xs[n] = x;
      ys[n] = y;
      vertexOf[n] = i;
      ringOf[n] = r;
      n++;
    }
    const first = starts[r]!;
    closed[r] = n - first > 1 && xs[first] === xs[n - 1] && ys[first] === ys[n - 1] ? 1 : 0;
  }
  starts[rings] = n;
  const hit = sweep(xs, ys, ringOf, starts, closed, n);
  if (hit === null) return null;
  const ringA = ringOf[hit.first]!;
  const ringB = ringOf[hit.second]!;
  return {
    firstRing: ringA,
    first: vertexOf[hit.first]! - ringStart[ringA]!,
    secondRing: ringB,
    second: vertexOf[hit.second]! - ringStart[ringB]!,
    kind: hit.kind,
  };
}

/** The sweep over deduplicated vertices; edge `e` joins vertices `e` and `e + 1` of one ring. */
function sweep(
  xs: Float64Array,
  ys: Float64Array,
  ringOf: Uint32Array,
  starts: Uint32Array,
  closed: Uint8Array,
  n: number,
): SelfIntersection | null {
  // Each edge from its lower end (by longitude, then latitude) to its upper end.
  const lx = new Float64Array(n);
  const ly = new Float64Array(n);
  const rx = new Float64Array(n);
  const ry = new Float64Array(n);
  let edges = 0;
  for (let e = 0; e + 1 < n; e++) {
    if (ringOf[e] !== ringOf[e + 1]) continue;
    edges++;
    const forward = xs[e]! < xs[e + 1]! || (xs[e] === xs[e + 1] && ys[e]! < ys[e + 1]!);
    const a = forward ? e : e + 1;
    const b = forward ? e + 1 : e;
    lx[e] = xs[a]!;
    ly[e] = ys[a]!;
    rx[e] = xs[b]!;
    ry[e] = ys[b]!;
  }
  if (edges < 2) return null;
  // Event 2e + 1 is edge e entering the line at its lower end, 2e its leaving at its upper end.
  const events = new Uint32Array(edges * 2);
  const ex = new Float64Array(2 * n);
  const ey = new Float64Array(2 * n);
  let k = 0;
  for (let e = 0; e + 1 < n; e++) {
    if (ringOf[e] !== ringOf[e + 1]) continue;
    events[k++] = 2 * e;
    events[k++] = 2 * e + 1;
    ex[2 * e] = rx[e]!;
    ey[2 * e] = ry[e]!;
    ex[2 * e + 1] = lx[e]!;
    ey[2 * e + 1] = ly[e]!;
  }
  const order = sortEvents(events, ex, ey);

  let found: SelfIntersection | null = null;
  const test = (i: number, j: number): boolean => {
    if (i < 0 || j < 0) return false;
    const first = Math.min(i, j);
    const second = Math.max(i, j);
    const kind = meet(first, second, xs, ys, ringOf, starts, closed);
    if (kind !== null) found = { first, second, kind };
    return kind !== null;
  };
  const status = new SweepStatus(n);
  for (let v = 0; v < order.length; ) {
    // The events at one point: every edge that ends there touches every other, and only two
    // neighbours in a ring may, so among three such edges two always meet, and two are tested here.
    let w = v + 1;
    const px = ex[order[v]!]!;
    const py = ey[order[v]!]!;
    while (w < order.length && ex[order[w]!] === px && ey[order[w]!] === py) w++;
    const ends = Math.min(w - v, 3);
    for (let a = 0; a < ends; a++) {
      for (let b = a + 1; b < ends; b++) if (test(order[v + a]! >>> 1, order[v + b]! >>> 1)) return found;
    }
    for (; v < w; v++) {
      const event = order[v]!;
      const e = event >>> 1;
      if ((event & 1) === 0) {
        const below = status.below(e);
        const above = status.above(e);
        status.remove(e);
        if (test(below, above)) return found;
        continue;
      }
      status.insert(e, (b) => {
        if (found !== null) return false;
        const side = orient(lx[b]!, ly[b]!, rx[b]!, ry[b]!, px, py);
        if (side !== 0) return side > 0;
        // The new edge starts on b: a contact, unless they are neighbours in the ring sharing this
        // vertex, whose order is then that of the new edge's other end.
        if (test(e, b)) return false;
        return orient(lx[b]!, ly[b]!, rx[b]!, ry[b]!, rx[e]!, ry[e]!) > 0;
      });
      if (found !== null) return found;
      if (test(e, status.below(e)) || test(e, status.above(e))) return found;
    }
  }
  return null;
}

/**
 * The events by point (longitude, then latitude), and at one point leaving before entering, so that
 * edges that only meet there are never neighbours. A merge sort with the comparison written out: a
 * typed array's `sort` with a comparator function took 3 to 5 times as long on 20,000 events.
 */
function sortEvents(events: Uint32Array<ArrayBuffer>, ex: Float64Array, ey: Float64Array): Uint32Array {
  const n = events.length;
  let from = events;
  let to = new Uint32Array(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = from[i]!;
        const b = from[j]!;
        const bFirst =
          ex[b]! < ex[a]! || (ex[b] === ex[a] && (ey[b]! < ey[a]! || (ey[b] === ey[a] && (b & 1) < (a & 1))));
        if (bFirst) {
          to[k++] = b;
          j++;
        } else {
          to[k++] = a;
          i++;
        }
      }
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
}

/** How edges i < j meet: adjacent edges of one ring may share their vertex, other edges nothing. */
function meet(
  i: number,
  j: number,
  xs: Float64Array,
  ys: Float64Array,
  ringOf: Uint32Array,
  starts: Uint32Array,
  closed: Uint8Array,
): ContactKind | null {
  const r = ringOf[i]!;
  if (r === ringOf[j]) {
    if (j === i + 1) return foldKind(j, i, j + 1, xs, ys);
    // The last and first edges of a closed ring share its first vertex (repeated at its end).
    if (closed[r] === 1 && i === starts[r] && j === starts[r + 1]! - 2) return foldKind(i, j, i + 1, xs, ys);
  }
  return contactKind(i, j, xs, ys);
}
