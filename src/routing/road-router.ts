import { LRUCache } from 'lru-cache';
import { distanceMeters } from '../geo/distance-meters.js';
import type { Position } from '../geo/types.js';
import type { PackSource } from '../geodata/live-pack.js';
import type { GeodataPack } from '../geodata/pack.js';
import { ESTIMATE_PROFILES, estimateRoute } from './estimate-router.js';
import type { ModeGraph, NetworkRoute, Snap, TargetSpace } from './graph/mode-graph.js';
import type { GraphMode, RouteMode } from './graph/profiles.js';
import type { Router, RouteSummary } from './router.js';

/** How far from the nearest routable road a point may be and still be routed on it. */
export const SNAP_LIMIT_METERS = 1000;

/** Destinations whose search spaces are kept (a few kilobytes each). */
const KEPT_TARGETS = 1024;

interface KeptTarget {
  snaps: Array<Snap | null>;
  spaces: Array<TargetSpace | undefined>;
}

/** A route with where it came from: the road graph, or the estimate outside coverage. */
export interface DetailedRoute extends RouteSummary {
  source: 'roads' | 'estimate';
  /** `[lon, lat]` points from origin to destination (the straight line for estimates). */
  line?: Position[];
}

/**
 * Routes on the road graphs of the imported OSM regions: snaps both points onto the nearest road of
 * the mode in one region and asks its contraction hierarchy. Points off every graph (or on pieces the
 * graph does not connect) get the estimate of ARCHITECTURE.md §5 — never an error.
 */
export class RoadRouter implements Router {
  constructor(private readonly packs: PackSource) {}

  /**
   * Without the line, for ETAs: the destination's snaps and the backward half of its searches are kept
   * (the last `KEPT_TARGETS` destinations), since trips to one store ask for the same destination on
   * every update. Same answers as `routeSync`.
   */
  async route(origin: Position, destination: Position, mode: RouteMode): Promise<RouteSummary> {
    if (mode === 'motorbike') {
      const r = this.routeSync(origin, destination, mode);
      return { distanceMeters: r.distanceMeters, durationSeconds: r.durationSeconds };
    }
    const graphs = this.graphs(mode);
    const target = this.targetOf(graphs, destination);
    const from = snapOn(graphs, origin);
    const g = onGraph(graphs, origin, from, destination, target.snaps);
    let r: DetailedRoute;
    if (g < 0) r = estimated(origin, destination, mode, false);
    else {
      const graph = graphs[g]!;
      const to = target.snaps[g]!;
      target.spaces[g] ??= graph.targetSpace(to);
      r = onRoads(origin, from[g]!, destination, to, graph.routeTo(from[g]!, target.spaces[g]), mode, false);
    }
    return { distanceMeters: r.distanceMeters, durationSeconds: r.durationSeconds };
  }

  /** A destination's snaps on each graph, and the search spaces computed for it so far. */
  private targetOf(graphs: readonly ModeGraph[], destination: Position): KeptTarget {
    let kept = this.targets.get(graphs);
    if (!kept) {
      kept = new LRUCache({ max: KEPT_TARGETS });
      this.targets.set(graphs, kept);
    }
    const key = `${destination[0]},${destination[1]}`;
    let target = kept.get(key);
    if (!target) {
      target = { snaps: snapOn(graphs, destination), spaces: [] };
      kept.set(key, target);
    }
    return target;
  }

  /** By the mode's graphs of one pack (a new pack has new graphs, and starts empty). */
  private readonly targets = new WeakMap<readonly ModeGraph[], LRUCache<string, KeptTarget>>();

  /** The route now (graphs are in memory); `withLine` adds its geometry. */
  routeSync(origin: Position, destination: Position, mode: RouteMode, withLine = false): DetailedRoute {
    const graphs = this.graphs(graphModeOf(mode));
    const from = snapOn(graphs, origin);
    const to = snapOn(graphs, destination);
    const g = onGraph(graphs, origin, from, destination, to);
    if (g < 0) return estimated(origin, destination, mode, withLine);
    const r = graphs[g]!.route(from[g]!, to[g]!, withLine, mode === 'motorbike');
    return onRoads(origin, from[g]!, destination, to[g]!, r, mode, withLine);
  }

  /**
   * Every origin to every destination, rows by origin: each point is snapped once, and each region's
   * graph answers all its pairs in one many-to-many query. Motorbikes are one route per pair (at most 25,
   * tens of µs each): re-timing a route needs its path, which the bucket query does not keep.
   */
  matrixSync(origins: readonly Position[], destinations: readonly Position[], mode: RouteMode): DetailedRoute[][] {
    if (mode === 'motorbike') return origins.map((o) => destinations.map((d) => this.routeSync(o, d, mode)));
    const graphs = this.graphs(mode);
    const from = origins.map((p) => snapOn(graphs, p));
    const to = destinations.map((p) => snapOn(graphs, p));
    const answers: Array<Array<Array<NetworkRoute | null>> | undefined> = [];
    return origins.map((o, i) =>
      destinations.map((d, j) => {
        const g = onGraph(graphs, o, from[i]!, d, to[j]!);
        if (g < 0) return estimated(o, d, mode, false);
        answers[g] ??= graphs[g]!.matrix(
          from.map((s) => s[g] ?? null),
          to.map((s) => s[g] ?? null),
        );
        return onRoads(o, from[i]![g]!, d, to[j]![g]!, answers[g]![i]![j] ?? null, mode, false);
      }),
    );
  }

  /** The mode's graph of the region whose roads are nearest to `p` (within the snap limit), with the snap. */
  snapped(p: Position, mode: GraphMode): { graph: ModeGraph; snap: Snap } | null {
    let best: { graph: ModeGraph; snap: Snap } | null = null;
    for (const graph of this.graphs(mode)) {
      const snap = graph.snap(p, SNAP_LIMIT_METERS);
      if (snap && (!best || snap.offMeters < best.snap.offMeters)) best = { graph, snap };
    }
    return best;
  }

  /** The mode's graphs of the current pack's regions, listed once per pack (this runs on every route). */
  private graphs(mode: GraphMode): readonly ModeGraph[] {
    const pack = this.packs.current();
    if (!pack) return [];
    let byMode = this.graphsOf.get(pack);
    if (!byMode) {
      byMode = new Map();
      this.graphsOf.set(pack, byMode);
    }
    let graphs = byMode.get(mode);
    if (!graphs) {
      graphs = pack.osmRegions.flatMap((r) => {
        const g = r.roads?.graph(mode);
        return g ? [g] : [];
      });
      byMode.set(mode, graphs);
    }
    return graphs;
  }

  private readonly graphsOf = new WeakMap<GeodataPack, Map<GraphMode, ModeGraph[]>>();
}

/** The graph a mode drives on: motorbikes use the car's (same roads and access), re-timed. */
function graphModeOf(mode: RouteMode): GraphMode {
  return mode === 'motorbike' ? 'car' : mode;
}

/** The snap of `p` on each graph (null where it is farther than the limit from every road). */
function snapOn(graphs: readonly ModeGraph[], p: Position): Array<Snap | null> {
  const out: Array<Snap | null> = new Array(graphs.length);
  for (let i = 0; i < graphs.length; i++) out[i] = graphs[i]!.snap(p, SNAP_LIMIT_METERS);
  return out;
}

/** The first graph where both points snapped, or -1 for the estimate. */
function onGraph(
  graphs: readonly ModeGraph[],
  origin: Position,
  originSnaps: ReadonlyArray<Snap | null>,
  destination: Position,
  destinationSnaps: ReadonlyArray<Snap | null>,
): number {
  for (let i = 0; i < graphs.length; i++) {
    const a = originSnaps[i];
    const b = destinationSnaps[i];
    if (!a || !b) continue;
    // Nearer each other than to the road: no point driving there (and the same point is 0).
    return distanceMeters(origin, destination) <= a.offMeters + b.offMeters ? -1 : i;
  }
  return -1;
}

/** The network route `r` between two snaps as the answer, or the estimate when it is null (disconnected). */
function onRoads(
  origin: Position,
  a: Snap,
  destination: Position,
  b: Snap,
  r: NetworkRoute | null,
  mode: RouteMode,
  withLine: boolean,
): DetailedRoute {
  if (!r) return estimated(origin, destination, mode, withLine);
  // The walk (or drive) between each point and the road it snapped to, at the mode's average speed.
  const off = a.offMeters + b.offMeters;
  const offSeconds = off / ((ESTIMATE_PROFILES[mode].speedKmh * 1000) / 3600);
  const out: DetailedRoute = {
    source: 'roads',
    distanceMeters: r.meters + off,
    durationSeconds: r.seconds + offSeconds,
  };
  if (withLine) out.line = [origin, ...(r.line ?? []), destination];
  return out;
}

function estimated(origin: Position, destination: Position, mode: RouteMode, withLine: boolean): DetailedRoute {
  const estimate: DetailedRoute = { source: 'estimate', ...estimateRoute(origin, destination, mode) };
  if (withLine) estimate.line = [origin, destination];
  return estimate;
}
