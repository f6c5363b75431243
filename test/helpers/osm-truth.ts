import { METERS_PER_DEGREE } from '../../src/geo/distance-meters.js';
import { readOsmFile } from '../../src/geodata/osm/osm-file.js';

type P = [number, number];

/**
 * Independent truth for border tests, straight from an extract: the raw segments of chosen ways and a
 * brute-force distance over all of them (no index, no ring assembly), and the nodes of its roads.
 */
export interface OsmTruth {
  /** Segments of the coastline ways, and of each administrative relation's member ways by its ISO 3166 code. */
  coast: Array<[P, P]>;
  byIso: Map<string, Array<[P, P]>>;
  /** Coordinates of every node of a drivable road. */
  roadNodes: P[];
}

const read = new Map<string, Promise<OsmTruth>>();

/** The truth of one extract, read once per test process (reading an extract takes seconds). */
export function osmTruth(path: string): Promise<OsmTruth> {
  let truth = read.get(path);
  if (!truth) {
    truth = readTruth(path);
    read.set(path, truth);
  }
  return truth;
}

async function readTruth(path: string): Promise<OsmTruth> {
  const osm = await readOsmFile(path);
  const segmentsOf = (refs: number[]): Array<[P, P]> => {
    const out: Array<[P, P]> = [];
    for (let i = 1; i < refs.length; i++) {
      const a = osm.position(refs[i - 1]!);
      const b = osm.position(refs[i]!);
      if (a && b) out.push([a, b]);
    }
    return out;
  };
  const ways = new Map(osm.ways.map((w) => [w.id, w]));
  const coast = osm.ways.filter((w) => w.tags.natural === 'coastline').flatMap((w) => segmentsOf(w.refs));
  const byIso = new Map<string, Array<[P, P]>>();
  for (const r of osm.relations) {
    const code = r.tags['ISO3166-2'] ?? r.tags['ISO3166-1'];
    if (r.tags.boundary !== 'administrative' || !code) continue;
    byIso.set(
      code,
      r.members.flatMap((m) => (m.type === 'way' && ways.has(m.ref) ? segmentsOf(ways.get(m.ref)!.refs) : [])),
    );
  }
  const roadNodes: P[] = [];
  for (const w of osm.ways) {
    if (!/^(motorway|trunk|primary|secondary|tertiary|unclassified|residential)$/.test(w.tags.highway ?? '')) continue;
    for (const ref of w.refs) {
      const p = osm.position(ref);
      if (p) roadNodes.push(p);
    }
  }
  return { coast, byIso, roadNodes };
}

/**
 * Meters from `p` to the nearest of `segments`, every segment tried (no index), each in a flat
 * projection centred on `p` (east scaled by cos(lat)): exact to centimetres at these distances.
 */
export function bruteDistance(p: P, segments: Array<[P, P]>): number {
  const ky = METERS_PER_DEGREE;
  const kx = METERS_PER_DEGREE * Math.cos((p[1] * Math.PI) / 180);
  let best = Number.POSITIVE_INFINITY;
  for (const [a, b] of segments) {
    const ax = (a[0] - p[0]) * kx;
    const ay = (a[1] - p[1]) * ky;
    const ex = (b[0] - p[0]) * kx - ax;
    const ey = (b[1] - p[1]) * ky - ay;
    const l2 = ex * ex + ey * ey;
    const t = l2 > 0 ? Math.min(1, Math.max(0, -(ax * ex + ay * ey) / l2)) : 0;
    best = Math.min(best, Math.hypot(ax + t * ex, ay + t * ey));
  }
  return best;
}

/**
 * Whether `p` is inside the area the segments bound, by the parity of the segments a ray east of `p`
 * crosses: needs no ring assembly, only that the segments together close (a complete relation).
 */
export function insideSegments(p: P, segments: Array<[P, P]>): boolean {
  let inside = false;
  for (const [[xi, yi], [xj, yj]] of segments) {
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
