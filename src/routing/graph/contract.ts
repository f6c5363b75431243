import { MinHeap } from './min-heap.js';

/** A directed weighted graph as edge columns (weight: seconds, meters carried along for the answer). */
export interface EdgeGraph {
  nodeCount: number;
  from: Uint32Array;
  to: Uint32Array;
  weight: Float64Array;
  meters: Float64Array;
}

/**
 * A contraction hierarchy in compressed sparse rows. `up*` holds, per node, the edges to nodes of
 * higher rank; `down*` holds, per node, the edges arriving from nodes of higher rank (stored at the lower
 * end, so a backward search walks them upward). `via` is the contracted middle node of a shortcut, or
 * `-1 - e` for original edge `e` (its geometry).
 */
export interface Hierarchy {
  rank: Uint32Array;
  upStart: Uint32Array;
  upNode: Uint32Array;
  upWeight: Float64Array;
  upMeters: Float64Array;
  upVia: Int32Array;
  downStart: Uint32Array;
  downNode: Uint32Array;
  downWeight: Float64Array;
  downMeters: Float64Array;
  downVia: Int32Array;
}

/** The final edges of one direction, in contraction order: owner (the lower end), other end, attributes. */
class Pool {
  owner: number[] = [];
  other: number[] = [];
  weight: number[] = [];
  meters: number[] = [];
  via: number[] = [];
  keep(owner: number, other: number, weight: number, meters: number, via: number): void {
    this.owner.push(owner);
    this.other.push(other);
    this.weight.push(weight);
    this.meters.push(meters);
    this.via.push(via);
  }
}

/**
 * Builds a contraction hierarchy: nodes are contracted in order of edge difference (shortcuts added minus
 * edges removed) plus contracted neighbours, with lazy priority updates; a shortcut u→w via v is added
 * only when a bounded witness search finds no path as short around v.
 */
export function contract(g: EdgeGraph): Hierarchy {
  const n = g.nodeCount;
  // Live adjacency: per node, edge ids into a shared pool of (endpoints, weight, meters, via).
  const eFrom: number[] = [];
  const eTo: number[] = [];
  const eW: number[] = [];
  const eM: number[] = [];
  const eVia: number[] = [];
  const outs: number[][] = Array.from({ length: n }, () => []);
  const ins: number[][] = Array.from({ length: n }, () => []);
  const addEdge = (u: number, w: number, weight: number, meters: number, via: number) => {
    // Keep one edge per (u, w): the lighter.
    for (const e of outs[u]!) {
      if (eTo[e] === w) {
        if (weight < eW[e]!) {
          eW[e] = weight;
          eM[e] = meters;
          eVia[e] = via;
        }
        return;
      }
    }
    const e = eFrom.length;
    eFrom.push(u);
    eTo.push(w);
    eW.push(weight);
    eM.push(meters);
    eVia.push(via);
    outs[u]!.push(e);
    ins[w]!.push(e);
  };
  for (let e = 0; e < g.from.length; e++) {
    if (g.from[e] === g.to[e]) continue;
    addEdge(g.from[e]!, g.to[e]!, g.weight[e]!, g.meters[e]!, -1 - e);
  }

  const contracted = new Uint8Array(n);
  const deleted = new Uint32Array(n);
  const dist = new Float64Array(n);
  const seen = new Uint32Array(n);
  let stamp = 0;
  const heap = new MinHeap();

  /** Shortest path u→targets avoiding `skip`, up to `limit` seconds and `maxSettled` nodes. */
  const witness = (u: number, skip: number, limit: number, maxSettled: number) => {
    stamp++;
    heap.clear();
    dist[u] = 0;
    seen[u] = stamp;
    heap.push(0, u);
    let settled = 0;
    while (heap.size > 0) {
      const d = heap.peekKey();
      const x = heap.peekValue();
      heap.pop();
      if (d > dist[x]!) continue;
      if (d > limit || ++settled > maxSettled) break;
      for (const e of outs[x]!) {
        const y = eTo[e]!;
        if (y === skip || contracted[y]) continue;
        const nd = d + eW[e]!;
        if (seen[y] !== stamp || nd < dist[y]!) {
          seen[y] = stamp;
          dist[y] = nd;
          heap.push(nd, y);
        }
      }
    }
  };
  const reached = (w: number) => (seen[w] === stamp ? dist[w]! : Number.POSITIVE_INFINITY);

  /** The shortcuts contracting v needs, as [u, w, weight, meters] tuples (or just their count). */
  const shortcutsFor = (v: number, maxSettled: number, collect: number[] | null): number => {
    let count = 0;
    const outEdges = outs[v]!.filter((e) => !contracted[eTo[e]!]);
    if (outEdges.length === 0) return 0;
    let maxOut = 0;
    for (const e of outEdges) maxOut = Math.max(maxOut, eW[e]!);
    for (const ei of ins[v]!) {
      const u = eFrom[ei]!;
      if (contracted[u]) continue;
      witness(u, v, eW[ei]! + maxOut, maxSettled);
      for (const eo of outEdges) {
        const w = eTo[eo]!;
        if (w === u) continue;
        const via = eW[ei]! + eW[eo]!;
        if (reached(w) <= via) continue;
        count++;
        collect?.push(u, w, via, eM[ei]! + eM[eo]!);
      }
    }
    return count;
  };
  const degree = (v: number) => {
    let d = 0;
    for (const e of outs[v]!) if (!contracted[eTo[e]!]) d++;
    for (const e of ins[v]!) if (!contracted[eFrom[e]!]) d++;
    return d;
  };
  const priority = (v: number) => 2 * shortcutsFor(v, 40, null) - degree(v) + deleted[v]!;

  const queue = new MinHeap();
  for (let v = 0; v < n; v++) queue.push(priority(v), v);

  const rank = new Uint32Array(n);
  const up = new Pool();
  const down = new Pool();
  let next = 0;
  const collect: number[] = [];
  while (queue.size > 0) {
    const v = queue.peekValue();
    queue.pop();
    if (contracted[v]) continue;
    // Lazy update: re-queue when the priority grew past the next candidate.
    const p = priority(v);
    if (queue.size > 0 && p > queue.peekKey()) {
      queue.push(p, v);
      continue;
    }
    collect.length = 0;
    shortcutsFor(v, 500, collect);
    // Keep v's remaining edges: they all lead to nodes contracted later (higher rank).
    for (const e of outs[v]!) if (!contracted[eTo[e]!]) up.keep(v, eTo[e]!, eW[e]!, eM[e]!, eVia[e]!);
    for (const e of ins[v]!) if (!contracted[eFrom[e]!]) down.keep(v, eFrom[e]!, eW[e]!, eM[e]!, eVia[e]!);
    contracted[v] = 1;
    rank[v] = next++;
    for (let i = 0; i < collect.length; i += 4)
      addEdge(collect[i]!, collect[i + 1]!, collect[i + 2]!, collect[i + 3]!, v);
    // Neighbours lose v: count it in their priority, and drop dead edges to keep scans short.
    const touched = new Set<number>();
    for (const e of outs[v]!) touched.add(eTo[e]!);
    for (const e of ins[v]!) touched.add(eFrom[e]!);
    for (const x of touched) {
      if (contracted[x]) continue;
      deleted[x]!++;
      outs[x] = outs[x]!.filter((e) => !contracted[eTo[e]!]);
      ins[x] = ins[x]!.filter((e) => !contracted[eFrom[e]!]);
    }
    outs[v] = [];
    ins[v] = [];
  }

  return {
    rank,
    ...toRows(n, up, 'up'),
    ...toRows(n, down, 'down'),
  } as Hierarchy;
}

function toRows(n: number, pool: Pool, prefix: 'up' | 'down') {
  const owner = pool.owner;
  const start = new Uint32Array(n + 1);
  for (const o of owner) start[o + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const m = owner.length;
  const node = new Uint32Array(m);
  const weight = new Float64Array(m);
  const meters = new Float64Array(m);
  const via = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const at = fill[owner[i]!]!++;
    node[at] = pool.other[i]!;
    weight[at] = pool.weight[i]!;
    meters[at] = pool.meters[i]!;
    via[at] = pool.via[i]!;
  }
  return {
    [`${prefix}Start`]: start,
    [`${prefix}Node`]: node,
    [`${prefix}Weight`]: weight,
    [`${prefix}Meters`]: meters,
    [`${prefix}Via`]: via,
  };
}
