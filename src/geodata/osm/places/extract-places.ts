import { METERS_PER_DEGREE } from '../../../geo/distance-meters.js';
import { ringContains } from '../../../geo/ring-contains.js';
import type { Position } from '../../../geo/types.js';
import { labelPoint } from '../../label-point.js';
import type { OsmFile, OsmRelation, OsmTags, OsmWay } from '../osm-file.js';
import { classifyTags } from './categories.js';
import type { ChainCatalogue } from './chains.js';
import type { PlaceAddress, PlaceRecord } from './place-record.js';

/** A place as extracted, with its footprint (outer ring then holes, per part) when it is an area. */
export interface ExtractedPlace extends PlaceRecord {
  footprint?: Position[][][];
}

/** How many features each source gave, for the manifest. */
export interface ExtractCounts {
  placeNodes: number;
  placeAreas: number;
  placeRelations: number;
  /** Point places that took the footprint of the unnamed building around them. */
  buildingFootprints: number;
  /** Point places dropped because an outline of the same name around them is the same place. */
  mergedDuplicates: number;
  chainPlaces: number;
  chains: number;
}

/**
 * Named POIs of an extract: tagged nodes, closed ways (buildings, areas) and multipolygon relations whose
 * tags {@link classifyTags} recognises. Ids derive from the OSM element (`osm-n123`), so they survive
 * re-imports. A point place alone inside an unnamed, untagged building takes that building as footprint,
 * so Places can tell "inside the shop" from "near it".
 */
export function extractPlaces(
  osm: OsmFile,
  chains: ChainCatalogue,
): { places: ExtractedPlace[]; counts: ExtractCounts } {
  const places: ExtractedPlace[] = [];
  const counts: ExtractCounts = {
    placeNodes: 0,
    placeAreas: 0,
    placeRelations: 0,
    buildingFootprints: 0,
    mergedDuplicates: 0,
    chainPlaces: 0,
    chains: 0,
  };
  const make = (id: string, tags: OsmTags, lon: number, lat: number, footprint?: Position[][][]) => {
    const name = cleanName(tags.name ?? tags.brand);
    if (!name) return null;
    const cls = classifyTags(tags);
    if (!cls) return null;
    const chain = chains.match(tags, cls.tag, lon, lat);
    const address = addressOf(tags);
    const place: ExtractedPlace = { id, name, lon, lat, categories: cls.categories };
    if (chain) place.chain = { name: chain.name, slug: chain.slug };
    if (address) place.address = address;
    if (footprint) place.footprint = footprint;
    return place;
  };

  for (const node of osm.taggedNodes) {
    const p = make(`osm-n${node.id}`, node.tags, node.lon, node.lat);
    if (p) {
      places.push(p);
      counts.placeNodes++;
    }
  }
  const pointPlaces = places.length;

  const buildings: Array<{ ring: Position[]; bbox: [number, number, number, number] }> = [];
  for (const way of osm.ways) {
    const named = way.tags.name ?? way.tags.brand;
    const isBuilding = !!way.tags.building && way.tags.building !== 'no';
    if (!named && !isBuilding) continue;
    if (!isClosed(way)) continue;
    const ring = osm.wayPositions(way);
    if (ring.length < 4) continue;
    if (named) {
      const footprint = [[ring]];
      const [lon, lat] = labelPoint([ring]);
      const p = make(`osm-w${way.id}`, way.tags, lon, lat, footprint);
      if (p) {
        places.push(p);
        counts.placeAreas++;
        continue;
      }
    }
    if (isBuilding && !named && !classifyTags(way.tags)) buildings.push({ ring, bbox: bboxOf(ring) });
  }

  for (const rel of osm.relations) {
    if (rel.tags.type !== 'multipolygon' || !(rel.tags.name ?? rel.tags.brand)) continue;
    if (!classifyTags(rel.tags)) continue;
    const parts = multipolygonParts(osm, rel);
    if (parts.length === 0) continue;
    const [lon, lat] = labelPoint(parts);
    const p = make(`osm-r${rel.id}`, rel.tags, lon, lat, parts);
    if (p) {
      places.push(p);
      counts.placeRelations++;
    }
  }

  const merged = mergeDuplicates(places, pointPlaces);
  counts.mergedDuplicates = places.length - merged.length;
  places.length = 0;
  places.push(...merged);
  counts.buildingFootprints = adoptBuildings(places.slice(0, pointPlaces - counts.mergedDuplicates), buildings);
  const chainKeys = new Set<string>();
  for (const p of places) {
    if (!p.chain) continue;
    counts.chainPlaces++;
    chainKeys.add(p.chain.slug);
  }
  counts.chains = chainKeys.size;
  return { places, counts };
}

/** How far outside a same-named outline a point place may lie and still be that place mapped twice. */
const DUPLICATE_METERS = 30;

/**
 * Drops point places mapped a second time as an outline of the same name around them (or within
 * {@link DUPLICATE_METERS}), giving the outline what only the point had (chain, address, categories).
 * Points come first in `places` (the first `points` entries); their order is kept.
 */
function mergeDuplicates(places: ExtractedPlace[], points: number): ExtractedPlace[] {
  const areasByName = new Map<string, ExtractedPlace[]>();
  for (const a of places.slice(points)) {
    const key = a.name.toLowerCase();
    const list = areasByName.get(key);
    if (list) list.push(a);
    else areasByName.set(key, [a]);
  }
  const keep: ExtractedPlace[] = [];
  for (const p of places.slice(0, points)) {
    const area = areasByName.get(p.name.toLowerCase())?.find((a) => nearOutline(a, p.lon, p.lat));
    if (!area) {
      keep.push(p);
      continue;
    }
    area.chain ??= p.chain;
    area.address ??= p.address;
    for (const c of p.categories) if (!area.categories.includes(c)) area.categories.push(c);
  }
  return [...keep, ...places.slice(points)];
}

function nearOutline(area: ExtractedPlace, lon: number, lat: number): boolean {
  const rings = area.footprint?.map((part) => part[0]!) ?? [];
  if (rings.some((ring) => ringContains(ring, lon, lat))) return true;
  const kx = METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  return rings.some((ring) =>
    ring.some(([x, y]) => Math.hypot((x - lon) * kx, (y - lat) * METERS_PER_DEGREE) <= DUPLICATE_METERS),
  );
}

/** Gives each lone point place the footprint of the building it stands in (grid-bucketed search). */
function adoptBuildings(
  points: ExtractedPlace[],
  buildings: Array<{ ring: Position[]; bbox: [number, number, number, number] }>,
): number {
  const cell = 0.002;
  const grid = new Map<string, number[]>();
  const keyOf = (x: number, y: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  points.forEach((p, i) => {
    const k = keyOf(p.lon, p.lat);
    const list = grid.get(k);
    if (list) list.push(i);
    else grid.set(k, [i]);
  });
  let adopted = 0;
  for (const b of buildings) {
    const inside: number[] = [];
    const [x0, y0, x1, y1] = b.bbox;
    for (let gx = Math.floor(x0 / cell); gx <= Math.floor(x1 / cell); gx++) {
      for (let gy = Math.floor(y0 / cell); gy <= Math.floor(y1 / cell); gy++) {
        for (const i of grid.get(`${gx},${gy}`) ?? []) {
          const p = points[i]!;
          if (p.lon >= x0 && p.lon <= x1 && p.lat >= y0 && p.lat <= y1 && ringContains(b.ring, p.lon, p.lat))
            inside.push(i);
        }
      }
    }
    // A mall or an office block holds many places: its outline says nothing about which one the user is in.
    if (inside.length !== 1) continue;
    const p = points[inside[0]!]!;
    if (p.footprint) continue;
    p.footprint = [[b.ring]];
    adopted++;
  }
  return adopted;
}

/** Outer and inner rings of a multipolygon, its member ways joined end to end; unclosable rings are dropped. */
function multipolygonParts(osm: OsmFile, rel: OsmRelation): Position[][][] {
  const wayById = waysById(osm);
  const outer: number[][] = [];
  const inner: number[][] = [];
  for (const m of rel.members) {
    if (m.type !== 'way') continue;
    const way = wayById.get(m.ref);
    if (!way) continue;
    (m.role === 'inner' ? inner : outer).push(way.refs);
  }
  const toRing = (refs: number[]) => refs.map((r) => osm.position(r)).filter((p): p is Position => !!p);
  const outers = joinRings(outer)
    .map(toRing)
    .filter((r) => r.length >= 4);
  const inners = joinRings(inner)
    .map(toRing)
    .filter((r) => r.length >= 4);
  return outers.map((ring) => [ring, ...inners.filter((h) => ringContains(ring, h[0]![0], h[0]![1]))]);
}

let wayIndex: { osm: OsmFile; map: Map<number, OsmWay> } | undefined;
function waysById(osm: OsmFile): Map<number, OsmWay> {
  if (wayIndex?.osm !== osm) wayIndex = { osm, map: new Map(osm.ways.map((w) => [w.id, w])) };
  return wayIndex.map;
}

/** Joins way node lists sharing end nodes into closed rings (node ids); open leftovers are dropped. */
export function joinRings(ways: number[][]): number[][] {
  const pending = ways.filter((w) => w.length >= 2).map((w) => [...w]);
  const rings: number[][] = [];
  while (pending.length > 0) {
    let ring = pending.shift()!;
    let grew = true;
    while (ring[0] !== ring[ring.length - 1] && grew) {
      grew = false;
      const end = ring[ring.length - 1];
      for (let i = 0; i < pending.length; i++) {
        const w = pending[i]!;
        if (w[0] === end) ring = [...ring, ...w.slice(1)];
        else if (w[w.length - 1] === end) ring = [...ring, ...w.slice(0, -1).reverse()];
        else continue;
        pending.splice(i, 1);
        grew = true;
        break;
      }
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}

function isClosed(way: OsmWay): boolean {
  return way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
}

function bboxOf(ring: Position[]): [number, number, number, number] {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of ring) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

/** Names go into newline-separated table columns: keep them on one line and trimmed. */
function cleanName(name: string | undefined): string {
  return (name ?? '').replace(/\s+/g, ' ').trim();
}

function addressOf(tags: OsmTags): PlaceAddress | undefined {
  const a: PlaceAddress = {};
  const set = (k: keyof PlaceAddress, v: string | undefined) => {
    const s = cleanName(v);
    if (s) a[k] = s;
  };
  set('number', tags['addr:housenumber']);
  set('street', tags['addr:street']);
  set('city', tags['addr:city']);
  set('state', tags['addr:state']);
  set('postalCode', tags['addr:postcode']);
  set('country', tags['addr:country']);
  return Object.keys(a).length > 0 ? a : undefined;
}
