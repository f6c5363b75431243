import { MinHeap } from './min-heap.js';
import { WitnessSearch } from './witness-search.js';

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
 *
 * The nodes ranked highest may form an uncontracted core: a core node's `up` row
 * holds all its edges to other core nodes and its `down` row all edges arriving from them, whatever
 * their ranks, so the same bidirectional search that climbs the hierarchy runs a plain bidirectional
 * Dijkstra once inside the core, and stays exact.
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

/** Witness searches while ranking nodes settle fewer nodes than the ones that decide real shortcuts. */
const RANKING_SETTLED = 50;
const CONTRACTING_SETTLED = 500;
/**
 * Contraction stops, leaving an uncontracted core, once the remaining graph is this dense (average
 * out-degree) and this small (live edges). On uniform-speed grids (walking in a gridded city) the last
 * nodes of a full hierarchy gain hundreds of neighbours each and cost most of the time: at 32,000
 * junctions, the last 6 % took more than half of it. The edge bound caps what a query's plain Dijkstra
 * through the core costs; graphs whose roads differ in speed (car, bike) reach the density only near
 * the top. docs/import-scale.md has the measured trade-off.
 */
const CORE_DEGREE = 16;
const CORE_EDGES = 200_000;

/** A hierarchy as {@link contract} built it, with the number of nodes left in its core. */
export interface ContractedHierarchy extends Hierarchy {
  coreSize: number;
}

/**
 * Builds a contraction hierarchy. Nodes are contracted in order of priority: twice the shortcuts added
 * minus the edges removed, plus contracted neighbours, from a witness search of 50 settled nodes; a
 * node's priority is computed again when it comes up, and it goes back in the queue when it grew past
 * the next one (lazy updates). Refreshing every neighbour's priority after each contraction cost the
 * car graph of the synthetic grid 1.5 times the time (for 22 % fewer shortcuts at 2 MB), and the walking
 * graph far more. A shortcut u→w via v is added unless a witness search of 500 settled nodes finds a
 * path as short around v. Contraction stops early at a dense core (see CORE_DEGREE).
 */
export function contract(g: EdgeGraph): ContractedHierarchy {
  const n = g.nodeCount;
  // Live adjacency: per node, edge ids into a shared pool of (endpoints, weight, meters, via).
  const eFrom: number[] = [];
  const eTo: number[] = [];
  const eW: number[] = [];
  const eM: number[] = [];
  const eVia: number[] = [];
  const outs: number[][] = Array.from({ length: n }, () => []);
  const ins: number[][] = Array.from({ length: n }, () => []);
  let liveEdges = 0;
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
    liveEdges++;
  };
  for (let e = 0; e < g.from.length; e++) {
    if (g.from[e] === g.to[e]) continue;
    addEdge(g.from[e]!, g.to[e]!, g.weight[e]!, g.meters[e]!, -1 - e);
  }

  const contracted = new Uint8Array(n);
  const deleted = new Uint32Array(n);
  const witness = new WitnessSearch(n, { outs, to: eTo, weight: eW });
  let remaining = n;

  const heads: number[] = [];
  /** The shortcuts contracting v needs, as [u, w, weight, meters] tuples (or just their count). */
  const shortcutsFor = (v: number, maxSettled: number, collect: number[] | null): number => {
    let count = 0;
    const outEdges = outs[v]!;
    if (outEdges.length === 0) return 0;
    for (const ei of ins[v]!) {
      const u = eFrom[ei]!;
      heads.length = 0;
      let limit = 0;
      for (const eo of outEdges) {
        const w = eTo[eo]!;
        if (w === u) continue;
        heads.push(w);
        limit = Math.max(limit, eW[eo]!);
      }
      if (heads.length === 0) continue;
      witness.run(u, v, heads, eW[ei]! + limit, maxSettled);
      for (const eo of outEdges) {
        const w = eTo[eo]!;
        if (w === u) continue;
        const via = eW[ei]! + eW[eo]!;
        if (witness.reached(w) <= via) continue;
        count++;
        collect?.push(u, w, via, eM[ei]! + eM[eo]!);
      }
    }
    return count;
  };
  const priority = (v: number) =>
    2 * shortcutsFor(v, RANKING_SETTLED, null) - outs[v]!.length - ins[v]!.length + deleted[v]!;

  const queue = new MinHeap();
  const queued = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    queued[v] = priority(v);
    queue.push(queued[v]!, v);
  }

  const rank = new Uint32Array(n);
  const up = new Pool();
  const down = new Pool();
  let next = 0;
  const collect: number[] = [];
  const touched: number[] = [];
  const lastTouchedBy = new Uint32Array(n);
  while (queue.size > 0) {
    const key = queue.peekKey();
    const v = queue.peekValue();
    queue.pop();
    if (contracted[v] || key !== queued[v]) continue;
    // Lazy update: re-queue when the priority grew past the next candidate.
    const p = priority(v);
    if (p !== key && queue.size > 0 && p > queue.peekKey()) {
      queued[v] = p;
      queue.push(p, v);
      continue;
    }
    collect.length = 0;
    shortcutsFor(v, CONTRACTING_SETTLED, collect);
    // Keep v's remaining edges: they all lead to nodes contracted later (higher rank).
    for (const e of outs[v]!) up.keep(v, eTo[e]!, eW[e]!, eM[e]!, eVia[e]!);
    for (const e of ins[v]!) down.keep(v, eFrom[e]!, eW[e]!, eM[e]!, eVia[e]!);
    contracted[v] = 1;
    rank[v] = next++;
    remaining--;
    liveEdges -= outs[v]!.length + ins[v]!.length;
    touched.length = 0;
    for (const e of outs[v]!) touched.push(eTo[e]!);
    for (const e of ins[v]!) touched.push(eFrom[e]!);
    for (const x of touched) {
      outs[x] = outs[x]!.filter((e) => eTo[e] !== v);
      ins[x] = ins[x]!.filter((e) => eFrom[e] !== v);
    }
    outs[v] = [];
    ins[v] = [];
    for (let i = 0; i < collect.length; i += 4)
      addEdge(collect[i]!, collect[i + 1]!, collect[i + 2]!, collect[i + 3]!, v);
    // Neighbours lose v: count it once each (an in- and out-neighbour appears twice).
    for (const x of touched) {
      if (lastTouchedBy[x] === next) continue;
      lastTouchedBy[x] = next;
      deleted[x]!++;
    }
    if (liveEdges >= CORE_DEGREE * remaining && liveEdges <= CORE_EDGES) break;
  }
  // The core: every node left, ranked above the rest, keeps all its live edges both ways (see Hierarchy).
  const coreSize = remaining;
  for (let v = 0; v < n; v++) {
    if (contracted[v]) continue;
    rank[v] = next++;
    for (const e of outs[v]!) up.keep(v, eTo[e]!, eW[e]!, eM[e]!, eVia[e]!);
    for (const e of ins[v]!) down.keep(v, eFrom[e]!, eW[e]!, eM[e]!, eVia[e]!);
  }

  return {
    coreSize,
    rank,
    ...toRows(n, up, 'up'),
    ...toRows(n, down, 'down'),
  } as ContractedHierarchy;
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
