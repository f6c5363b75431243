import type { Position } from '../../../geo/types.js';
import type { OsmFile, OsmTags } from '../osm-file.js';
import { houseNumberKey, houseNumberValue } from './house-numbers.js';
import { streetKey } from './street-names.js';

/** The highway values whose names are streets people give addresses on (not footways, ramps or tracks). */
const STREET_HIGHWAYS = new Set([
  'motorway',
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'unclassified',
  'residential',
  'living_street',
  'pedestrian',
  'service',
  'road',
]);

// Same-named pieces closer than this (bounding boxes, degrees of latitude: about 300 m) are one street; a
// `Main Street` in the next town is another.
const MERGE_GAP_DEG = 0.003;

/** One address as tagged, with its point (a node, or the mean of a building's nodes). */
export interface CollectedAddress {
  number: string;
  unit: string;
  street: string;
  postcode: string;
  city: string;
  state: string;
  lon: number;
  lat: number;
  /** `houseNumberKey(number) + ' ' + streetKey(street)`: the table is sorted on it. */
  key: string;
  value: number;
  streetId: number;
}

/** A named street: same-named highway pieces that touch or nearly touch, each piece a polyline. */
export interface CollectedStreet {
  name: string;
  key: string;
  parts: Position[][];
}

export interface CollectedIntersection {
  lon: number;
  lat: number;
  a: number;
  b: number;
}

/** Everything the address layer stores, with streets sorted by key and addresses by key. */
export interface CollectedAddressData {
  addresses: CollectedAddress[];
  streets: CollectedStreet[];
  intersections: CollectedIntersection[];
  /** Addresses without a street tag, or without a point. */
  skipped: number;
}

/** Reads addresses, streets and intersections out of an extract (see the address layer for the rules). */
export function collectAddresses(osm: OsmFile): CollectedAddressData {
  const { streets, wayStreet } = collectStreets(osm);
  const intersections = collectIntersections(osm, streets, wayStreet);
  let skipped = 0;
  const addresses: CollectedAddress[] = [];
  const add = (tags: OsmTags, point: Position | undefined) => {
    const number = tags['addr:housenumber']?.trim();
    const street = (tags['addr:street'] ?? tags['addr:place'])?.trim();
    if (!number || !street || !point) {
      skipped++;
      return;
    }
    addresses.push({
      number,
      unit: (tags['addr:unit'] ?? tags['addr:flats'] ?? '').trim(),
      street,
      postcode: (tags['addr:postcode'] ?? '').trim(),
      city: (tags['addr:city'] ?? '').trim(),
      state: (tags['addr:state'] ?? '').trim(),
      lon: point[0],
      lat: point[1],
      key: `${houseNumberKey(number)} ${streetKey(street)}`,
      value: houseNumberValue(number),
      streetId: -1,
    });
  };
  for (const node of osm.taggedNodes) {
    if (node.tags['addr:housenumber']) add(node.tags, [node.lon, node.lat]);
  }
  for (const way of osm.ways) {
    if (way.tags['addr:housenumber'] && !way.tags.highway) add(way.tags, meanPoint(osm.wayPositions(way)));
  }
  addresses.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  linkStreets(addresses, streets);
  return { addresses, streets, intersections, skipped };
}

function collectStreets(osm: OsmFile): { streets: CollectedStreet[]; wayStreet: Map<number, number> } {
  // Pieces by key, then merged into streets where they share a node or lie within MERGE_GAP_DEG.
  const byKey = new Map<string, { way: number; name: string; points: Position[]; refs: number[] }[]>();
  osm.ways.forEach((way, i) => {
    const name = way.tags.name;
    if (!name || !STREET_HIGHWAYS.has(way.tags.highway ?? '')) return;
    const key = streetKey(name);
    if (!key) return;
    const points = osm.wayPositions(way);
    if (points.length < 2) return;
    const piece = { way: i, name, points, refs: way.refs };
    const list = byKey.get(key);
    if (list) list.push(piece);
    else byKey.set(key, [piece]);
  });
  const streets: CollectedStreet[] = [];
  const wayStreet = new Map<number, number>();
  for (const [key, pieces] of byKey) {
    const parent = pieces.map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
      return i;
    };
    const boxes = pieces.map((p) => bbox(p.points));
    const nodeOwner = new Map<number, number>();
    pieces.forEach((p, i) => {
      for (const ref of p.refs) {
        const other = nodeOwner.get(ref);
        if (other === undefined) nodeOwner.set(ref, i);
        else parent[find(i)] = find(other);
      }
    });
    for (let i = 0; i < pieces.length; i++) {
      for (let j = i + 1; j < pieces.length; j++) {
        if (find(i) !== find(j) && boxesNear(boxes[i]!, boxes[j]!)) parent[find(i)] = find(j);
      }
    }
    const groups = new Map<number, number[]>();
    pieces.forEach((_, i) => {
      const root = find(i);
      const g = groups.get(root);
      if (g) g.push(i);
      else groups.set(root, [i]);
    });
    for (const members of groups.values()) {
      const id = streets.length;
      const names = new Map<string, number>();
      for (const m of members) {
        const p = pieces[m]!;
        names.set(p.name, (names.get(p.name) ?? 0) + 1);
        wayStreet.set(p.way, id);
      }
      const name = [...names].sort((a, b) => b[1] - a[1])[0]![0];
      streets.push({ name, key, parts: members.map((m) => pieces[m]!.points) });
    }
  }
  // Sorted by key, so a prefix of a typed street is one range of the table.
  const order = streets
    .map((_, i) => i)
    .sort((a, b) => (streets[a]!.key < streets[b]!.key ? -1 : streets[a]!.key > streets[b]!.key ? 1 : a - b));
  const rank = new Array<number>(order.length);
  order.forEach((old, i) => {
    rank[old] = i;
  });
  for (const [way, old] of wayStreet) wayStreet.set(way, rank[old]!);
  return { streets: order.map((i) => streets[i]!), wayStreet };
}

// Two differently named streets crossing several times a block apart (dual carriageways) are one crossing.
const INTERSECTION_DEDUP_DEG = 0.001;

function collectIntersections(
  osm: OsmFile,
  streets: CollectedStreet[],
  wayStreet: Map<number, number>,
): CollectedIntersection[] {
  const nodeStreets = new Map<number, number[]>();
  for (const [way, street] of wayStreet) {
    for (const ref of osm.ways[way]!.refs) {
      const list = nodeStreets.get(ref);
      if (!list) nodeStreets.set(ref, [street]);
      else if (!list.includes(street)) list.push(street);
    }
  }
  const out: CollectedIntersection[] = [];
  const seen = new Map<string, Position[]>();
  for (const [ref, list] of nodeStreets) {
    if (list.length < 2) continue;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = list[i]! < list[j]! ? [list[i]!, list[j]!] : [list[j]!, list[i]!];
        if (streets[a]!.key === streets[b]!.key) continue;
        const p = osm.position(ref);
        if (!p) continue;
        const pair = `${a} ${b}`;
        const points = seen.get(pair) ?? [];
        if (
          points.some(
            (q) =>
              Math.abs(q[0] - p[0]) < INTERSECTION_DEDUP_DEG * 1.4 && Math.abs(q[1] - p[1]) < INTERSECTION_DEDUP_DEG,
          )
        )
          continue;
        points.push(p);
        seen.set(pair, points);
        out.push({ lon: p[0], lat: p[1], a, b });
      }
    }
  }
  return out;
}

/** Sets each address's street: the nearest street of the same key within about 1 km, else none. */
function linkStreets(addresses: CollectedAddress[], streets: CollectedStreet[]): void {
  const byKey = new Map<string, number[]>();
  streets.forEach((s, i) => {
    const list = byKey.get(s.key);
    if (list) list.push(i);
    else byKey.set(s.key, [i]);
  });
  // Each part's box, so that the search skips parts no nearer than the best point so far: a long street
  // (or every "Main Street" of a state, which share a key) would otherwise cost each address all its points.
  const partBoxes = streets.map((s) => s.parts.map(bbox));
  for (const a of addresses) {
    const candidates = byKey.get(a.key.slice(houseNumberKey(a.number).length + 1));
    if (!candidates) continue;
    let best = -1;
    let bestD = 0.01 ** 2; // squared degrees: about 1 km
    const cosLat = Math.cos((a.lat * Math.PI) / 180);
    for (const s of candidates) {
      const boxes = partBoxes[s]!;
      for (const [k, part] of streets[s]!.parts.entries()) {
        // The box's nearest point bounds every point's distance from below (same arithmetic, so exact).
        const b = boxes[k]!;
        const bx = Math.max(b[0] - a.lon, 0, a.lon - b[2]) * cosLat;
        if (bx * bx + Math.max(b[1] - a.lat, 0, a.lat - b[3]) ** 2 >= bestD) continue;
        for (const [lon, lat] of part) {
          const dx = (lon - a.lon) * cosLat;
          const d = dx * dx + (lat - a.lat) ** 2;
          if (d < bestD) {
            bestD = d;
            best = s;
          }
        }
      }
    }
    a.streetId = best;
  }
}

function meanPoint(points: Position[]): Position | undefined {
  if (points.length === 0) return undefined;
  // A closed ring repeats its first node: leave it out so it does not pull the mean.
  const n =
    points.length > 1 && points[0]![0] === points.at(-1)![0] && points[0]![1] === points.at(-1)![1]
      ? points.length - 1
      : points.length;
  let lon = 0;
  let lat = 0;
  for (let i = 0; i < n; i++) {
    lon += points[i]![0];
    lat += points[i]![1];
  }
  return [lon / n, lat / n];
}

type Box = [number, number, number, number];

function bbox(points: Position[]): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of points) {
    if (lon < b[0]) b[0] = lon;
    if (lat < b[1]) b[1] = lat;
    if (lon > b[2]) b[2] = lon;
    if (lat > b[3]) b[3] = lat;
  }
  return b;
}

function boxesNear(a: Box, b: Box): boolean {
  const gx = MERGE_GAP_DEG * 1.4;
  return a[0] - gx <= b[2] && b[0] - gx <= a[2] && a[1] - MERGE_GAP_DEG <= b[3] && b[1] - MERGE_GAP_DEG <= a[3];
}
