import type { TravelMode } from '../domain/geofences/geofence.js';
import { distanceMeters } from '../geo/distance-meters.js';
import type { Position } from '../geo/types.js';
import type { PackSource } from '../geodata/live-pack.js';
import { ESTIMATE_PROFILES, estimateRoute } from './estimate-router.js';
import type { ModeGraph, Snap } from './graph/mode-graph.js';
import type { Router, RouteSummary } from './router.js';

/** How far from the nearest routable road a point may be and still be routed on it. */
export const SNAP_LIMIT_METERS = 1000;

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

  async route(origin: Position, destination: Position, mode: TravelMode): Promise<RouteSummary> {
    const { distanceMeters, durationSeconds } = this.routeSync(origin, destination, mode);
    return { distanceMeters, durationSeconds };
  }

  /** The route now (graphs are in memory); `withLine` adds its geometry. */
  routeSync(origin: Position, destination: Position, mode: TravelMode, withLine = false): DetailedRoute {
    const graphs = this.graphs(mode);
    const snap = (p: Position) => graphs.map((g) => g.snap(p, SNAP_LIMIT_METERS));
    return this.between(graphs, origin, snap(origin), destination, snap(destination), mode, withLine);
  }

  /** Every origin to every destination, rows by origin; each point is snapped once. */
  matrixSync(origins: readonly Position[], destinations: readonly Position[], mode: TravelMode): DetailedRoute[][] {
    const graphs = this.graphs(mode);
    const snap = (p: Position) => graphs.map((g) => g.snap(p, SNAP_LIMIT_METERS));
    const to = destinations.map(snap);
    return origins.map((o) => {
      const from = snap(o);
      return destinations.map((d, j) => this.between(graphs, o, from, d, to[j]!, mode, false));
    });
  }

  /** The route on the first region where both points snapped, else the estimate. */
  private between(
    graphs: readonly ModeGraph[],
    origin: Position,
    originSnaps: ReadonlyArray<Snap | null>,
    destination: Position,
    destinationSnaps: ReadonlyArray<Snap | null>,
    mode: TravelMode,
    withLine: boolean,
  ): DetailedRoute {
    for (const [i, graph] of graphs.entries()) {
      const a = originSnaps[i];
      const b = destinationSnaps[i];
      if (!a || !b) continue;
      // Nearer each other than to the road: no point driving there (and the same point is 0).
      const off = a.offMeters + b.offMeters;
      if (distanceMeters(origin, destination) <= off) break;
      const r = graph.route(a, b, withLine);
      if (!r) break; // a disconnected piece: estimate
      // The walk (or drive) between each point and the road it snapped to, at the mode's average speed.
      const offSeconds = off / ((ESTIMATE_PROFILES[mode].speedKmh * 1000) / 3600);
      const out: DetailedRoute = {
        source: 'roads',
        distanceMeters: r.meters + off,
        durationSeconds: r.seconds + offSeconds,
      };
      if (withLine) out.line = [origin, ...(r.line ?? []), destination];
      return out;
    }
    const estimate: DetailedRoute = { source: 'estimate', ...estimateRoute(origin, destination, mode) };
    if (withLine) estimate.line = [origin, destination];
    return estimate;
  }

  /** The mode's graph of the region whose roads are nearest to `p` (within the snap limit), with the snap. */
  snapped(p: Position, mode: TravelMode): { graph: ModeGraph; snap: Snap } | null {
    let best: { graph: ModeGraph; snap: Snap } | null = null;
    for (const graph of this.graphs(mode)) {
      const snap = graph.snap(p, SNAP_LIMIT_METERS);
      if (snap && (!best || snap.offMeters < best.snap.offMeters)) best = { graph, snap };
    }
    return best;
  }

  private graphs(mode: TravelMode): ModeGraph[] {
    const pack = this.packs.current();
    if (!pack) return [];
    return pack.osmRegions.flatMap((r) => {
      const g = r.roads?.graph(mode);
      return g ? [g] : [];
    });
  }
}
