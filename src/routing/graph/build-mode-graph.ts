import { distanceMeters } from '../../geo/distance-meters.js';
import type { OsmFile, OsmRelation } from '../../geodata/osm/osm-file.js';
import { type GraphMode, MOTORBIKE_FACTORS, wayUse } from './profiles.js';

/**
 * The road network of one mode, before contraction. Ways are cut at junctions (nodes shared by two
 * routable ways, way ends, restriction via nodes) into chains that keep their full geometry; the graph
 * routes between junctions along chains. A junction with car turn restrictions is split into one graph
 * node per incoming chain direction, each with only the exits that direction may take — so a plain
 * node-based search (and its contraction hierarchy) honours the restrictions.
 */
export interface ModeNetwork {
  junctionLon: Float64Array;
  junctionLat: Float64Array;
  /** Chain c's points are coords [chainStart[c], chainStart[c+1]). */
  chainStart: Uint32Array;
  coordLon: Float64Array;
  coordLat: Float64Array;
  /** Meters from the start of its chain to each point. */
  coordMeasure: Float64Array;
  chainFrom: Uint32Array;
  chainTo: Uint32Array;
  /** Seconds to travel the chain from→to and to→from; -1 where that direction is closed. */
  chainFwdSec: Float64Array;
  chainBwdSec: Float64Array;
  /** The junction each graph node stands for. */
  nodeJunction: Uint32Array;
  edgeFrom: Uint32Array;
  edgeTo: Uint32Array;
  edgeSec: Float64Array;
  edgeMeters: Float64Array;
  /** `chain * 2 + direction` (0 from→to, 1 to→from) that each graph edge travels. */
  edgeChainDir: Uint32Array;
  /**
   * Car graph only: seconds a motorbike takes over each chain (either open direction), so a car route
   * can be re-timed for motorbikes without a graph of their own. Absent in packs imported before it.
   */
  chainMotorbikeSec?: Float64Array;
  /** Turn restriction relations applied (car and truck). */
  restrictions: number;
}

interface Restriction {
  fromWay: number;
  toWay: number;
  only: boolean;
}

/** Growable typed-array builders keep memory flat for a few hundred thousand points. */
class F64 {
  a = new Float64Array(1024);
  n = 0;
  push(v: number) {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done() {
    return this.a.slice(0, this.n);
  }
}

export function buildModeNetwork(osm: OsmFile, mode: GraphMode): ModeNetwork {
  // Which ways the mode uses, and how.
  const ways = osm.ways.flatMap((way) => {
    const use = wayUse(way.tags, mode);
    return use && (use.forward || use.backward) ? [{ way, use }] : [];
  });
  const restrictionsAt =
    mode === 'car' || mode === 'truck' ? turnRestrictions(osm.relations, osm, mode) : new Map<number, Restriction[]>();

  // Junctions: nodes used twice (by one or more ways), way ends, via nodes, the middle of closed ways.
  const uses = new Uint8Array(osm.nodeCount);
  const mark = new Uint8Array(osm.nodeCount);
  for (const { way } of ways) {
    const refs = way.refs;
    for (const ref of refs) {
      const i = osm.nodeIndex(ref);
      if (i >= 0 && uses[i]! < 2) uses[i]!++;
    }
    const ends = [refs[0]!, refs[refs.length - 1]!];
    if (refs[0] === refs[refs.length - 1] && refs.length > 2) ends.push(refs[refs.length >> 1]!);
    for (const ref of ends) {
      const i = osm.nodeIndex(ref);
      if (i >= 0) mark[i] = 1;
    }
  }
  const junctionOf = new Int32Array(osm.nodeCount).fill(-1);
  const jLon = new F64();
  const jLat = new F64();
  const junctionOsm = new F64();
  const junction = (idx: number, id: number): number => {
    if (junctionOf[idx]! < 0) {
      const p = osm.position(id)!;
      junctionOf[idx] = jLon.n;
      jLon.push(p[0]);
      jLat.push(p[1]);
      junctionOsm.push(id);
    }
    return junctionOf[idx]!;
  };

  // Chains between junctions.
  const coordLon = new F64();
  const coordLat = new F64();
  const measure = new F64();
  const chainStart = new F64();
  const chainFrom = new F64();
  const chainTo = new F64();
  const fwd = new F64();
  const bwd = new F64();
  const chainWay = new F64();
  const motorbike = new F64();
  for (const { way, use } of ways) {
    let startJ = -1;
    let prev: [number, number] | null = null;
    let meters = 0;
    for (const ref of way.refs) {
      const idx = osm.nodeIndex(ref);
      if (idx < 0) continue; // clipped at the extract border
      const p = osm.position(ref)!;
      const isJunction = uses[idx]! >= 2 || mark[idx] === 1 || restrictionsAt.has(ref);
      if (prev) meters += distanceMeters(prev, p);
      if (startJ < 0) {
        // A way's first present node always starts a chain (the border may have cut the true end).
        startJ = junction(idx, ref);
        chainStart.push(coordLon.n);
        meters = 0;
      }
      coordLon.push(p[0]);
      coordLat.push(p[1]);
      measure.push(meters);
      prev = p;
      if (isJunction && coordLon.n - chainStart.a[chainStart.n - 1]! > 1) {
        const endJ = junction(idx, ref);
        chainFrom.push(startJ);
        chainTo.push(endJ);
        const sec = meters / (use.speedKmh / 3.6);
        fwd.push(use.forward ? sec : -1);
        bwd.push(use.backward ? sec : -1);
        chainWay.push(way.id);
        motorbike.push(sec * (MOTORBIKE_FACTORS[way.tags.highway ?? ''] ?? 1));
        // The junction also starts the next chain.
        startJ = endJ;
        chainStart.push(coordLon.n);
        coordLon.push(p[0]);
        coordLat.push(p[1]);
        measure.push(0);
        meters = 0;
      }
    }
    if (startJ >= 0) {
      // Drop the dangling start of a chain that never reached a junction: its last point became one
      // through `mark` unless the border cut the way, and then there is nothing after it to route.
      const open = chainStart.a[chainStart.n - 1]!;
      coordLon.n = coordLat.n = measure.n = open;
      chainStart.n--;
    }
  }
  const nChains = chainFrom.n;
  chainStart.push(coordLon.n);

  // Graph nodes: one per junction, plus per-incoming-direction copies at restricted junctions.
  const nJ = jLon.n;
  const nodeJunction: number[] = Array.from({ length: nJ }, (_, j) => j);
  const restrictedJ = new Map<number, Restriction[]>();
  for (let j = 0; j < nJ; j++) {
    const r = restrictionsAt.get(junctionOsm.a[j]!);
    if (r) restrictedJ.set(j, r);
  }
  const dirOpen = (c: number, d: number) => (d === 0 ? fwd.a[c]! : bwd.a[c]!) >= 0;
  const headJ = (c: number, d: number) => (d === 0 ? chainTo.a[c]! : chainFrom.a[c]!);
  const tailJ = (c: number, d: number) => (d === 0 ? chainFrom.a[c]! : chainTo.a[c]!);
  // For restricted junctions: the copy that each incoming chain direction arrives at.
  const copyOf = new Map<number, number>();
  const incomingAt = new Map<number, number[]>();
  for (let c = 0; c < nChains; c++) {
    for (let d = 0; d < 2; d++) {
      if (!dirOpen(c, d)) continue;
      const h = headJ(c, d);
      if (!restrictedJ.has(h)) continue;
      copyOf.set(c * 2 + d, nodeJunction.length);
      nodeJunction.push(h);
      const list = incomingAt.get(h) ?? [];
      list.push(c * 2 + d);
      incomingAt.set(h, list);
    }
  }
  const headNode = (c: number, d: number) => copyOf.get(c * 2 + d) ?? headJ(c, d);
  const turnAllowed = (rules: Restriction[], fromWay: number, toWay: number): boolean => {
    let allowed = true;
    for (const r of rules) {
      if (r.fromWay !== fromWay) continue;
      if (r.only) allowed &&= r.toWay === toWay;
      else if (r.toWay === toWay) allowed = false;
    }
    return allowed;
  };

  const eFrom = new F64();
  const eTo = new F64();
  const eSec = new F64();
  const eMeters = new F64();
  const eChainDir = new F64();
  for (let c = 0; c < nChains; c++) {
    const length = measure.a[chainStart.a[c + 1]! - 1]!;
    for (let d = 0; d < 2; d++) {
      if (!dirOpen(c, d)) continue;
      const sec = d === 0 ? fwd.a[c]! : bwd.a[c]!;
      const to = headNode(c, d);
      const t = tailJ(c, d);
      const rules = restrictedJ.get(t);
      const froms: number[] = [];
      if (!rules) froms.push(t);
      else {
        for (const inc of incomingAt.get(t) ?? []) {
          if (turnAllowed(rules, chainWay.a[inc >> 1]!, chainWay.a[c]!)) froms.push(copyOf.get(inc)!);
        }
      }
      for (const from of froms) {
        eFrom.push(from);
        eTo.push(to);
        eSec.push(sec);
        eMeters.push(length);
        eChainDir.push(c * 2 + d);
      }
    }
  }

  return {
    junctionLon: jLon.done(),
    junctionLat: jLat.done(),
    chainStart: Uint32Array.from(chainStart.done()),
    coordLon: coordLon.done(),
    coordLat: coordLat.done(),
    coordMeasure: measure.done(),
    chainFrom: Uint32Array.from(chainFrom.done()),
    chainTo: Uint32Array.from(chainTo.done()),
    chainFwdSec: fwd.done(),
    chainBwdSec: bwd.done(),
    nodeJunction: Uint32Array.from(nodeJunction),
    edgeFrom: Uint32Array.from(eFrom.done()),
    edgeTo: Uint32Array.from(eTo.done()),
    edgeSec: eSec.done(),
    edgeMeters: eMeters.done(),
    edgeChainDir: Uint32Array.from(eChainDir.done()),
    ...(mode === 'car' ? { chainMotorbikeSec: motorbike.done() } : {}),
    restrictions: [...restrictedJ.values()].reduce((n, rules) => n + rules.length, 0),
  };
}

/**
 * Car (or truck) turn restrictions with a via node, keyed by the via node's OSM id: `no_*` forbids
 * from→to, `only_*` forbids every other exit from `from`. Via-way restrictions and ones that exempt the
 * vehicle are skipped.
 */
function turnRestrictions(
  relations: readonly OsmRelation[],
  osm: OsmFile,
  mode: 'car' | 'truck',
): Map<number, Restriction[]> {
  const own = mode === 'car' ? 'motorcar' : 'hgv';
  const exempt = new RegExp(`\\b(${own}|motor_vehicle)\\b`);
  const out = new Map<number, Restriction[]>();
  for (const rel of relations) {
    if (rel.tags.type !== 'restriction') continue;
    const kind = rel.tags[`restriction:${own}`] ?? rel.tags['restriction:motor_vehicle'] ?? rel.tags.restriction;
    if (!kind || !/^(no_|only_)/.test(kind)) continue;
    if (exempt.test(rel.tags.except ?? '')) continue;
    const from = rel.members.find((m) => m.role === 'from' && m.type === 'way');
    const to = rel.members.find((m) => m.role === 'to' && m.type === 'way');
    const vias = rel.members.filter((m) => m.role === 'via');
    if (!from || !to || vias.length !== 1 || vias[0]!.type !== 'node') continue;
    if (osm.nodeIndex(vias[0]!.ref) < 0) continue;
    const list = out.get(vias[0]!.ref) ?? [];
    list.push({ fromWay: from.ref, toWay: to.ref, only: kind.startsWith('only_') });
    out.set(vias[0]!.ref, list);
  }
  return out;
}
