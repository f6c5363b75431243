import type Flatbush from 'flatbush';
import { METERS_PER_DEGREE } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import type { ModeNetwork } from './build-mode-graph.js';
import type { Hierarchy } from './contract.js';
import { MinHeap } from './min-heap.js';
import { ownerOf } from './owner-of.js';
import { SearchGraph } from './search-graph.js';

/** A point placed on the network: the chain it lies on, how far along it, and how far off the road. */
export interface Snap {
  chain: number;
  /** Meters from the chain's first point. */
  measure: number;
  position: Position;
  offMeters: number;
}

/** A route on the network between two snaps: seconds, meters, and the line when asked for. */
export interface NetworkRoute {
  seconds: number;
  meters: number;
  line?: Position[];
}

/** The backward search space of one destination snap, by search id (`ModeGraph.targetSpace`). */
export interface TargetSpace {
  snap: Snap;
  index: Map<number, number>;
  seconds: Float64Array;
  meters: Float64Array;
}

/** A CH route unpacked: first chain direction (from the origin's snap), original edges, last one. */
interface RoutePath {
  startCd: number;
  edges: number[];
  endCd: number;
}

/** Where a search starts or ends: a graph node, the cost to/from the snap, and the chain direction used. */
interface Terminal {
  node: number;
  seconds: number;
  meters: number;
  chainDir: number;
}

/**
 * One mode's routable graph, opened from the pack: the network (chains with geometry), its contraction
 * hierarchy for point-to-point queries, a segment index for snapping, and reverse adjacency for
 * isochrones. Queries reuse preallocated, generation-stamped arrays: the server is single-threaded.
 */
export class ModeGraph {
  private readonly segments: Flatbush;
  /** Graph edges grouped by chain direction (which nodes a chain direction leaves from / arrives at). */
  private readonly byChainDirStart: Uint32Array;
  private readonly byChainDir: Uint32Array;
  private revStart: Uint32Array | null = null;
  private revEdge: Uint32Array | null = null;
  private readonly n: number;
  private readonly sg: SearchGraph;
  /** Scratch of the forward and backward CH searches, by search id. */
  private readonly fwd: SearchSide;
  private readonly bwd: SearchSide;
  /** Scratch of the plain Dijkstras (isochrones, checks), by graph node. */
  private readonly fDist: Float64Array;
  private readonly fSeen: Uint32Array;
  private readonly bDist: Float64Array;
  private readonly bSeen: Uint32Array;
  private stamp = 0;
  private readonly fHeap = new MinHeap();
  private readonly bHeap = new MinHeap();

  constructor(
    readonly net: ModeNetwork,
    readonly ch: Hierarchy,
    segmentIndex: Flatbush,
  ) {
    this.segments = segmentIndex;
    this.n = net.nodeJunction.length;
    const keys = net.chainStart.length * 2;
    this.byChainDirStart = new Uint32Array(keys + 1);
    for (const cd of net.edgeChainDir) this.byChainDirStart[cd + 1]!++;
    for (let i = 0; i < keys; i++) this.byChainDirStart[i + 1]! += this.byChainDirStart[i]!;
    const fill = this.byChainDirStart.slice(0, keys);
    this.byChainDir = new Uint32Array(net.edgeChainDir.length);
    net.edgeChainDir.forEach((cd, e) => {
      this.byChainDir[fill[cd]!++] = e;
    });
    this.sg = new SearchGraph(ch);
    this.fwd = new SearchSide(this.n);
    this.bwd = new SearchSide(this.n);
    this.fDist = new Float64Array(this.n);
    this.fSeen = new Uint32Array(this.n);
    this.bDist = new Float64Array(this.n);
    this.bSeen = new Uint32Array(this.n);
  }

  get chainCount(): number {
    return this.net.chainFrom.length;
  }

  /** The nearest point on the network within `maxMeters`, or null. */
  snap(p: Position, maxMeters: number): Snap | null {
    const net = this.net;
    const kx = Math.cos((p[1] * Math.PI) / 180);
    const maxDeg = maxMeters / METERS_PER_DEGREE / Math.max(kx, 0.01);
    const ids = this.segments.neighbors(p[0], p[1], 12, maxDeg);
    let best: Snap | null = null;
    for (const i of ids) {
      // Segment i runs from coord i to i + 1, in planar meters around p.
      const ax = (net.coordLon[i]! - p[0]) * kx;
      const ay = net.coordLat[i]! - p[1];
      const bx = (net.coordLon[i + 1]! - p[0]) * kx;
      const by = net.coordLat[i + 1]! - p[1];
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
      const off = Math.hypot(ax + t * dx, ay + t * dy) * METERS_PER_DEGREE;
      if (off > maxMeters || (best && off >= best.offMeters)) continue;
      const chain = this.chainOfCoord(i);
      const m0 = net.coordMeasure[i]!;
      best = {
        chain,
        measure: m0 + t * (net.coordMeasure[i + 1]! - m0),
        position: [net.coordLon[i]! + t * (net.coordLon[i + 1]! - net.coordLon[i]!), net.coordLat[i]! + t * dy],
        offMeters: off,
      };
    }
    return best;
  }

  /**
   * Fastest route between two snaps; null when the network does not connect them. `motorbike` (car
   * graph) keeps the route and gives the seconds a motorbike takes over it (`chainMotorbikeSec`).
   */
  route(a: Snap, b: Snap, withLine = false, motorbike = false): NetworkRoute | null {
    const sources = this.terminals(a, true);
    const targets = this.terminals(b, false);
    let best = Number.POSITIVE_INFINITY;
    let bestMeters = 0;
    let meet = -1;
    // Both on one chain, the direct way along it may beat leaving it.
    let direct: NetworkRoute | null = null;
    if (a.chain === b.chain) direct = this.alongChain(a, b, withLine);
    if (direct) best = direct.seconds;

    const stamp = ++this.stamp;
    const { sg, fwd, bwd, fHeap, bHeap } = this;
    fHeap.clear();
    bHeap.clear();
    for (const s of sources) fwd.start(sg.idOf[s.node]!, s, stamp, fHeap);
    for (const t of targets) bwd.start(sg.idOf[t.node]!, t, stamp, bHeap);
    while (fHeap.size > 0 || bHeap.size > 0) {
      const forward = fHeap.peekKey() <= bHeap.peekKey();
      const heap = forward ? fHeap : bHeap;
      const d = heap.peekKey();
      if (d >= best) break; // both tops are at least d
      const x = heap.peekValue();
      heap.pop();
      const side = forward ? fwd : bwd;
      if (d > side.at[4 * x + 1]!) continue;
      const other = forward ? bwd : fwd;
      if (other.at[4 * x] === stamp) {
        const total = fwd.at[4 * x + 1]! + bwd.at[4 * x + 1]!;
        if (total < best) {
          best = total;
          bestMeters = fwd.at[4 * x + 2]! + bwd.at[4 * x + 2]!;
          meet = x;
        }
      }
      if (
        forward
          ? side.stalled(x, d, sg.downStart, sg.down, sg.downHead, stamp)
          : side.stalled(x, d, sg.upStart, sg.up, sg.upHead, stamp)
      ) {
        continue;
      }
      side.expand(
        x,
        d,
        forward ? sg.upStart : sg.downStart,
        forward ? sg.up : sg.down,
        forward ? sg.upHead : sg.downHead,
        stamp,
        heap,
      );
    }
    if (meet < 0) {
      if (direct && motorbike) direct.seconds = direct.meters * this.motorbikeRate(a.chain);
      return direct;
    }
    const out: NetworkRoute = { seconds: best, meters: bestMeters };
    if (!withLine && !motorbike) return out;
    const path = this.pathOf(meet);
    if (withLine) out.line = this.lineOf(a, b, path);
    if (motorbike) out.seconds = this.motorbikeSeconds(a, b, path);
    return out;
  }

  /** Motorbike seconds per meter on chain c: its own timing where stored, else the car's. */
  private motorbikeRate(c: number): number {
    const length = this.chainLength(c);
    if (length <= 0) return 0;
    const own = this.net.chainMotorbikeSec?.[c];
    return (own ?? Math.max(this.chainSeconds(c, 0), this.chainSeconds(c, 1))) / length;
  }

  /** The seconds a motorbike takes over the path of a route: partial first and last chains, whole ones between. */
  private motorbikeSeconds(a: Snap, b: Snap, path: RoutePath): number {
    const { startCd, edges, endCd } = path;
    const sc = startCd >> 1;
    const ec = endCd >> 1;
    let seconds = ((startCd & 1) === 0 ? this.chainLength(sc) - a.measure : a.measure) * this.motorbikeRate(sc);
    for (const e of edges) {
      const c = this.net.edgeChainDir[e]! >> 1;
      seconds += this.chainLength(c) * this.motorbikeRate(c);
    }
    seconds += ((endCd & 1) === 0 ? b.measure : this.chainLength(ec) - b.measure) * this.motorbikeRate(ec);
    return seconds;
  }

  /**
   * The backward half of every CH query to `b`, kept: the nodes its upward search settles (stalled ones
   * left out, as in `matrix`) with the seconds and meters from each to `b`. Routes to a destination
   * many ask for (a trip's store, on every update of every trip to it) then search forward only.
   */
  targetSpace(b: Snap): TargetSpace {
    const index = new Map<number, number>();
    const seconds: number[] = [];
    const meters: number[] = [];
    this.upwardTo(b, (x, d, m) => {
      index.set(x, seconds.length);
      seconds.push(d);
      meters.push(m);
    });
    return { snap: b, index, seconds: Float64Array.from(seconds), meters: Float64Array.from(meters) };
  }

  /**
   * The upward search of the reversed graph from `b`: `settle` gets each node it settles (stalled ones
   * left out: their costs are not shortest) with the seconds and meters from it to `b`.
   */
  private upwardTo(b: Snap, settle: (x: number, seconds: number, meters: number) => void): void {
    const { sg, bwd, bHeap } = this;
    const stamp = ++this.stamp;
    bHeap.clear();
    for (const t of this.terminals(b, false)) bwd.start(sg.idOf[t.node]!, t, stamp, bHeap);
    const at = bwd.at;
    while (bHeap.size > 0) {
      const d = bHeap.peekKey();
      const x = bHeap.peekValue();
      bHeap.pop();
      if (d > at[4 * x + 1]!) continue;
      if (bwd.stalled(x, d, sg.upStart, sg.up, sg.upHead, stamp)) continue;
      settle(x, d, at[4 * x + 2]!);
      bwd.expand(x, d, sg.downStart, sg.down, sg.downHead, stamp, bHeap);
    }
  }

  /** Fastest route from `a` to a kept target (`targetSpace`), without its line; null when not connected. */
  routeTo(a: Snap, target: TargetSpace): NetworkRoute | null {
    const { sg, fwd, fHeap } = this;
    const direct = a.chain === target.snap.chain ? this.alongChain(a, target.snap, false) : null;
    let best = direct ? direct.seconds : Number.POSITIVE_INFINITY;
    let bestMeters = 0;
    let met = false;
    const stamp = ++this.stamp;
    fHeap.clear();
    for (const s of this.terminals(a, true)) fwd.start(sg.idOf[s.node]!, s, stamp, fHeap);
    const at = fwd.at;
    while (fHeap.size > 0) {
      const d = fHeap.peekKey();
      if (d >= best) break; // what is left of the way to the target costs nothing less
      const x = fHeap.peekValue();
      fHeap.pop();
      if (d > at[4 * x + 1]!) continue;
      if (fwd.stalled(x, d, sg.downStart, sg.down, sg.downHead, stamp)) continue;
      const k = target.index.get(x);
      if (k !== undefined && d + target.seconds[k]! < best) {
        best = d + target.seconds[k]!;
        bestMeters = at[4 * x + 2]! + target.meters[k]!;
        met = true;
      }
      fwd.expand(x, d, sg.upStart, sg.up, sg.upHead, stamp, fHeap);
    }
    return met ? { seconds: best, meters: bestMeters } : direct;
  }

  /**
   * Fastest routes from each source to each target (rows by source; null where either snap is missing or
   * the network does not connect them), without lines. A many-to-many CH query: one upward search per
   * target leaves a bucket entry at every node it settles, then one upward search per source reads the
   * buckets of the nodes it settles — sources + targets searches instead of sources × targets.
   */
  matrix(sources: ReadonlyArray<Snap | null>, targets: ReadonlyArray<Snap | null>): Array<Array<NetworkRoute | null>> {
    const { sg, fwd, fHeap } = this;
    const buckets = this.bucketsFor();
    const gen = ++buckets.gen;
    let entries = 0;
    for (let j = 0; j < targets.length; j++) {
      const b = targets[j];
      if (!b) continue;
      this.upwardTo(b, (x, d, m) => {
        if (buckets.stamp[x] !== gen) {
          buckets.stamp[x] = gen;
          buckets.head[x] = -1;
        }
        buckets.add(entries, j, d, m, buckets.head[x]!);
        buckets.head[x] = entries++;
      });
    }
    const { target, dist, meters, next } = buckets;
    const best = new Float64Array(targets.length);
    const bestMeters = new Float64Array(targets.length);
    return sources.map((a) => {
      const row: Array<NetworkRoute | null> = targets.map(() => null);
      if (!a) return row;
      const met = new Uint8Array(targets.length);
      // Both on one chain, the direct way along it may beat leaving it.
      for (let j = 0; j < targets.length; j++) {
        const b = targets[j];
        const direct = b && a.chain === b.chain ? this.alongChain(a, b, false) : null;
        row[j] = direct;
        best[j] = direct ? direct.seconds : Number.POSITIVE_INFINITY;
      }
      const stamp = ++this.stamp;
      fHeap.clear();
      for (const s of this.terminals(a, true)) fwd.start(sg.idOf[s.node]!, s, stamp, fHeap);
      const at = fwd.at;
      let worst = 0;
      for (let t = 0; t < best.length; t++) if (targets[t] && best[t]! > worst) worst = best[t]!;
      while (fHeap.size > 0) {
        const d = fHeap.peekKey();
        if (d >= worst) break; // no target can improve any more
        const x = fHeap.peekValue();
        fHeap.pop();
        if (d > at[4 * x + 1]!) continue;
        if (fwd.stalled(x, d, sg.downStart, sg.down, sg.downHead, stamp)) continue;
        if (buckets.stamp[x] === gen) {
          for (let k = buckets.head[x]!; k >= 0; k = next[k]!) {
            const j = target[k]!;
            const total = d + dist[k]!;
            if (total < best[j]!) {
              best[j] = total;
              bestMeters[j] = at[4 * x + 2]! + meters[k]!;
              met[j] = 1;
              worst = 0;
              for (let t = 0; t < best.length; t++) if (targets[t] && best[t]! > worst) worst = best[t]!;
            }
          }
        }
        fwd.expand(x, d, sg.upStart, sg.up, sg.upHead, stamp, fHeap);
      }
      for (let j = 0; j < targets.length; j++) {
        if (met[j]) row[j] = { seconds: best[j]!, meters: bestMeters[j]! };
      }
      return row;
    });
  }

  private buckets: Buckets | null = null;
  private bucketsFor(): Buckets {
    if (!this.buckets) this.buckets = new Buckets(this.n);
    return this.buckets;
  }

  /**
   * Where `b` is reachable from within `seconds` (a Dijkstra on reversed edges), as positions: the
   * target, the reached junctions, and the farthest reachable point of each chain the time runs out on.
   */
  reachableTo(b: Snap, seconds: number): Position[] {
    const { rs, re } = this.reverse();
    const net = this.net;
    const stamp = ++this.stamp;
    const dist = this.bDist;
    const seen = this.bSeen;
    const heap = this.bHeap;
    heap.clear();
    for (const t of this.terminals(b, false)) {
      if (t.seconds > seconds || (seen[t.node] === stamp && dist[t.node]! <= t.seconds)) continue;
      seen[t.node] = stamp;
      dist[t.node] = t.seconds;
      heap.push(t.seconds, t.node);
    }
    const points: Position[] = [b.position];
    while (heap.size > 0) {
      const d = heap.peekKey();
      const x = heap.peekValue();
      heap.pop();
      if (d > dist[x]!) continue;
      const j = net.nodeJunction[x]!;
      points.push([net.junctionLon[j]!, net.junctionLat[j]!]);
      for (let i = rs[x]!, end = rs[x + 1]!; i < end; i++) {
        const e = re[i]!;
        const y = net.edgeFrom[e]!;
        const sec = net.edgeSec[e]!;
        const nd = d + sec;
        if (nd > seconds) {
          // The time runs out along this chain: its farthest reachable point marks the edge of the area.
          points.push(this.backAlong(net.edgeChainDir[e]!, sec > 0 ? (seconds - d) / sec : 0));
          continue;
        }
        if (seen[y] !== stamp || nd < dist[y]!) {
          seen[y] = stamp;
          dist[y] = nd;
          heap.push(nd, y);
        }
      }
    }
    return points;
  }

  /** The point `share` of the way back from the end of chain direction `cd` toward its start. */
  private backAlong(cd: number, share: number): Position {
    const c = cd >> 1;
    const length = this.chainLength(c);
    const m = (cd & 1) === 0 ? length * (1 - share) : length * share;
    return this.chainPart(c, m, m)[0]!;
  }

  /** Shortest route by length between two snaps (plain Dijkstra; for checks against other routers). */
  shortestMeters(a: Snap, b: Snap): number {
    const net = this.net;
    const out = this.forwardRows();
    const stamp = ++this.stamp;
    const dist = this.fDist;
    const seen = this.fSeen;
    const heap = this.fHeap;
    heap.clear();
    for (const s of this.terminals(a, true)) {
      if (seen[s.node] === stamp && dist[s.node]! <= s.meters) continue;
      seen[s.node] = stamp;
      dist[s.node] = s.meters;
      heap.push(s.meters, s.node);
    }
    const goal = new Map<number, number>();
    for (const t of this.terminals(b, false)) goal.set(t.node, Math.min(goal.get(t.node) ?? Infinity, t.meters));
    let best = a.chain === b.chain ? (this.alongChain(a, b)?.meters ?? Infinity) : Infinity;
    while (heap.size > 0) {
      const d = heap.peekKey();
      const x = heap.peekValue();
      heap.pop();
      if (d >= best) break;
      if (d > dist[x]!) continue;
      const g = goal.get(x);
      if (g !== undefined) best = Math.min(best, d + g);
      for (let i = out.start[x]!, end = out.start[x + 1]!; i < end; i++) {
        const e = out.edge[i]!;
        const y = net.edgeTo[e]!;
        const nd = d + net.edgeMeters[e]!;
        if (seen[y] !== stamp || nd < dist[y]!) {
          seen[y] = stamp;
          dist[y] = nd;
          heap.push(nd, y);
        }
      }
    }
    return best;
  }

  private fwdRows: { start: Uint32Array; edge: Uint32Array } | null = null;
  private forwardRows() {
    if (!this.fwdRows) this.fwdRows = rowsBy(this.net.edgeFrom, this.n);
    return this.fwdRows;
  }

  private reverse() {
    if (!this.revStart || !this.revEdge) {
      const rows = rowsBy(this.net.edgeTo, this.n);
      this.revStart = rows.start;
      this.revEdge = rows.edge;
    }
    return { rs: this.revStart, re: this.revEdge };
  }

  private chainOfCoord(i: number): number {
    return ownerOf(this.net.chainStart, i);
  }

  private chainLength(c: number): number {
    return this.net.coordMeasure[this.net.chainStart[c + 1]! - 1]!;
  }

  private chainSeconds(c: number, d: number): number {
    return d === 0 ? this.net.chainFwdSec[c]! : this.net.chainBwdSec[c]!;
  }

  /**
   * Leaving a snap (`leaving`): the nodes at the end of each open direction of its chain with the cost
   * of the rest of the chain. Arriving: the nodes each open direction starts from, with the cost of the
   * part of the chain up to the snap.
   */
  private terminals(s: Snap, leaving: boolean): Terminal[] {
    const out: Terminal[] = [];
    const length = this.chainLength(s.chain);
    for (let d = 0; d < 2; d++) {
      const sec = this.chainSeconds(s.chain, d);
      if (sec < 0) continue;
      const cd = s.chain * 2 + d;
      // Share of the chain between the snap and the end in direction d (leaving) or its start (arriving).
      const ahead = d === 0 ? length - s.measure : s.measure;
      const part = leaving ? ahead : length - ahead;
      const share = length > 0 ? part / length : 0;
      for (let i = this.byChainDirStart[cd]!, end = this.byChainDirStart[cd + 1]!; i < end; i++) {
        const e = this.byChainDir[i]!;
        const node = leaving ? this.net.edgeTo[e]! : this.net.edgeFrom[e]!;
        out.push({ node, seconds: sec * share, meters: part, chainDir: cd });
      }
    }
    // A snap on a junction is at every graph node of it: it may leave by (or arrive from) any road there,
    // not only along the chain it snapped to (which may be one-way the other way).
    const net = this.net;
    const atStart = s.measure <= AT_JUNCTION_METERS;
    const atEnd = length - s.measure <= AT_JUNCTION_METERS;
    if (atStart || atEnd) {
      const j = atStart ? net.chainFrom[s.chain]! : net.chainTo[s.chain]!;
      // The chain direction whose part between the snap and the junction is empty (for the line).
      const cd = s.chain * 2 + (atStart === leaving ? 1 : 0);
      const { start, node } = this.junctionNodes();
      for (let i = start[j]!; i < start[j + 1]!; i++) out.push({ node: node[i]!, seconds: 0, meters: 0, chainDir: cd });
    }
    return out;
  }

  private junctionRows: { start: Uint32Array; node: Uint32Array } | null = null;
  /** Graph nodes per junction (several where turn restrictions split it). */
  private junctionNodes() {
    if (!this.junctionRows) {
      const rows = rowsBy(this.net.nodeJunction, this.net.junctionLon.length);
      this.junctionRows = { start: rows.start, node: rows.edge };
    }
    return this.junctionRows;
  }

  /** Travel along one chain from a to b, when a direction allows it. */
  private alongChain(a: Snap, b: Snap, withLine = true): NetworkRoute | null {
    const length = this.chainLength(a.chain);
    const d = b.measure >= a.measure ? 0 : 1;
    const sec = this.chainSeconds(a.chain, d);
    if (sec < 0) return null;
    const meters = Math.abs(b.measure - a.measure);
    const out: NetworkRoute = { seconds: length > 0 ? (sec * meters) / length : 0, meters };
    if (!withLine) return out;
    const line = this.chainPart(a.chain, Math.min(a.measure, b.measure), Math.max(a.measure, b.measure));
    if (d === 1) line.reverse();
    out.line = line;
    return out;
  }

  /** Points of chain c between two measures, in chain order. */
  private chainPart(c: number, from: number, to: number): Position[] {
    const net = this.net;
    const s = net.chainStart[c]!;
    const e = net.chainStart[c + 1]!;
    const out: Position[] = [];
    const at = (m: number): Position => {
      for (let i = s; i < e - 1; i++) {
        const m0 = net.coordMeasure[i]!;
        const m1 = net.coordMeasure[i + 1]!;
        if (m <= m1 || i === e - 2) {
          const t = m1 > m0 ? Math.max(0, Math.min(1, (m - m0) / (m1 - m0))) : 0;
          return [
            net.coordLon[i]! + t * (net.coordLon[i + 1]! - net.coordLon[i]!),
            net.coordLat[i]! + t * (net.coordLat[i + 1]! - net.coordLat[i]!),
          ];
        }
      }
      return [net.coordLon[s]!, net.coordLat[s]!];
    };
    out.push(at(from));
    for (let i = s; i < e; i++) {
      const m = net.coordMeasure[i]!;
      if (m > from && m < to) out.push([net.coordLon[i]!, net.coordLat[i]!]);
    }
    out.push(at(to));
    return out;
  }

  /** The route line: origin chain part, every chain of the unpacked path, destination chain part. */
  /** The original graph edges of the route through `meet`, and the chain directions it starts and ends on. */
  private pathOf(meet: number): RoutePath {
    const { ch, sg } = this;
    // Forward half: walk parents from meet back to the source, collecting CH edges (owner, index).
    const fEdges: number[] = [];
    let x = meet;
    let startCd = -1;
    for (;;) {
      const p = this.fwd.at[4 * x + 3]!;
      if (p < 0) {
        startCd = -1 - p;
        break;
      }
      fEdges.push(sg.upEdge[p]!);
      x = ownerOf(sg.upStart, p);
    }
    const bEdges: number[] = [];
    x = meet;
    let endCd = -1;
    for (;;) {
      const p = this.bwd.at[4 * x + 3]!;
      if (p < 0) {
        endCd = -1 - p;
        break;
      }
      bEdges.push(sg.downEdge[p]!);
      x = ownerOf(sg.downStart, p);
    }
    const original: number[] = [];
    for (let i = fEdges.length - 1; i >= 0; i--) {
      const p = fEdges[i]!;
      this.unpack(ownerOf(ch.upStart, p), ch.upNode[p]!, ch.upVia[p]!, original);
    }
    for (const p of bEdges) {
      // A down edge at node o from higher node h is the original direction h→o.
      this.unpack(ch.downNode[p]!, ownerOf(ch.downStart, p), ch.downVia[p]!, original);
    }
    return { startCd, edges: original, endCd };
  }

  private lineOf(a: Snap, b: Snap, path: RoutePath): Position[] {
    const { startCd, edges: original, endCd } = path;
    const length = (c: number) => this.chainLength(c);
    const line: Position[] = [];
    const sc = startCd >> 1;
    const first = this.chainPart(sc, (startCd & 1) === 0 ? a.measure : 0, (startCd & 1) === 0 ? length(sc) : a.measure);
    if (startCd & 1) first.reverse();
    line.push(...first);
    for (const e of original) {
      const cd = this.net.edgeChainDir[e]!;
      const part = this.chainPart(cd >> 1, 0, length(cd >> 1));
      if (cd & 1) part.reverse();
      line.push(...part.slice(1));
    }
    const ec = endCd >> 1;
    const last = this.chainPart(ec, (endCd & 1) === 0 ? 0 : b.measure, (endCd & 1) === 0 ? b.measure : length(ec));
    if (endCd & 1) last.reverse();
    line.push(...last.slice(1));
    return line;
  }

  /** Expands the CH edge u→w into original graph edges, in order. */
  private unpack(u: number, w: number, via: number, out: number[]): void {
    if (via < 0) {
      out.push(-1 - via);
      return;
    }
    const m = via;
    this.unpack(u, m, this.viaOf(u, m), out);
    this.unpack(m, w, this.viaOf(m, w), out);
  }

  /** The `via` of the lightest CH edge u→w (stored at the lower-ranked end). */
  private viaOf(u: number, w: number): number {
    const ch = this.ch;
    let bestW = Number.POSITIVE_INFINITY;
    let via = 0;
    if (ch.rank[w]! > ch.rank[u]!) {
      for (let i = ch.upStart[u]!; i < ch.upStart[u + 1]!; i++) {
        if (ch.upNode[i] === w && ch.upWeight[i]! < bestW) {
          bestW = ch.upWeight[i]!;
          via = ch.upVia[i]!;
        }
      }
    } else {
      for (let i = ch.downStart[w]!; i < ch.downStart[w + 1]!; i++) {
        if (ch.downNode[i] === u && ch.downWeight[i]! < bestW) {
          bestW = ch.downWeight[i]!;
          via = ch.downVia[i]!;
        }
      }
    }
    return via;
  }
}

/** A snap this close to a chain's end is on the junction there. */
const AT_JUNCTION_METERS = 0.5;

/** Edge ids grouped by a node column (CSR). */
function rowsBy(column: Uint32Array, n: number): { start: Uint32Array; edge: Uint32Array } {
  const start = new Uint32Array(n + 1);
  for (const v of column) start[v + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const edge = new Uint32Array(column.length);
  column.forEach((v, e) => {
    edge[fill[v]!++] = e;
  });
  return { start, edge };
}

/**
 * The bucket entries of a many-to-many query: per node a linked list (head, generation stamp) of
 * (target, seconds and meters from the node to it), in growable typed arrays kept between queries.
 */
class Buckets {
  readonly head: Int32Array;
  readonly stamp: Uint32Array;
  gen = 0;
  target = new Int32Array(1024);
  dist = new Float64Array(1024);
  meters = new Float64Array(1024);
  next = new Int32Array(1024);

  constructor(n: number) {
    this.head = new Int32Array(n);
    this.stamp = new Uint32Array(n);
  }

  add(k: number, target: number, dist: number, meters: number, next: number): void {
    if (k === this.target.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.target = grow(this.target);
      this.dist = grow(this.dist);
      this.meters = grow(this.meters);
      this.next = grow(this.next);
    }
    this.target[k] = target;
    this.dist[k] = dist;
    this.meters[k] = meters;
    this.next[k] = next;
  }
}

/**
 * One direction of a CH search over a {@link SearchGraph}, four numbers per search id side by side (one
 * cache line for what a search reads of a node): the generation stamp saying the entry belongs to the
 * current search, seconds and meters so far, and the edge the node was reached by (`-1 - chainDir` at a
 * terminal).
 */
class SearchSide {
  readonly at: Float64Array;

  constructor(n: number) {
    this.at = new Float64Array(4 * n);
  }

  /** Seeds search id x from a terminal (keeping the cheaper of two terminals at one node). */
  start(x: number, t: Terminal, stamp: number, heap: MinHeap): void {
    const at = this.at;
    if (at[4 * x] === stamp && at[4 * x + 1]! <= t.seconds) return;
    at[4 * x] = stamp;
    at[4 * x + 1] = t.seconds;
    at[4 * x + 2] = t.meters;
    at[4 * x + 3] = -1 - t.chainDir;
    heap.push(t.seconds, x);
  }

  /** Relaxes the edges of x's row (stride 3: head, seconds, meters). */
  expand(
    x: number,
    d: number,
    start: Uint32Array,
    rows: Float64Array,
    heads: Uint32Array,
    stamp: number,
    heap: MinHeap,
  ): void {
    const at = this.at;
    const m = at[4 * x + 2]!;
    for (let i = start[x]!, end = start[x + 1]!; i < end; i++) {
      const y = heads[6 * i]!;
      const nd = d + rows[3 * i + 1]!;
      if (at[4 * y] !== stamp || nd < at[4 * y + 1]!) {
        at[4 * y] = stamp;
        at[4 * y + 1] = nd;
        at[4 * y + 2] = m + rows[3 * i + 2]!;
        at[4 * y + 3] = i;
        heap.push(nd, y);
      }
    }
  }

  /**
   * Stall-on-demand: x, settled at `d`, is reached more cheaply from a higher node this search has seen
   * (over an edge of the other direction's rows), so no shortest path goes up through it.
   */
  stalled(x: number, d: number, start: Uint32Array, rows: Float64Array, heads: Uint32Array, stamp: number): boolean {
    const at = this.at;
    for (let i = start[x]!, end = start[x + 1]!; i < end; i++) {
      const h = heads[6 * i]!;
      if (at[4 * h] === stamp && at[4 * h + 1]! + rows[3 * i + 1]! < d) return true;
    }
    return false;
  }
}
