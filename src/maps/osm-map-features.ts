import { join } from 'node:path';
import type { Geometry } from 'geojson';
import type { Position } from '../geo/types.js';
import type { OsmFile, OsmTags, OsmWay } from '../geodata/osm/osm-file.js';
import type { OsmBuildResult } from '../geodata/osm/osm-layer-builder.js';
import { joinRings } from '../geodata/osm/places/extract-places.js';
import { openPlaceLayer } from '../geodata/osm/places/place-layer.js';
import { writeTileArchive } from './tile-archive.js';
import { TILE_MAX_ZOOM, type TileCoord } from './tile-grid.js';
import { forEachPosition } from './tile-math.js';
import { type MapFeature, TileSet } from './tile-set.js';

/** The tile archive an OSM import writes for the map (MBTiles layout), in the region's folder. */
export const MAP_TILES_FILE = 'map-tiles.mbtiles';

/**
 * Properties every map feature carries: the vector-tile layer it goes to and the lowest zoom it is
 * drawn at (tiles below leave it out, so a z8 tile does not carry every footway).
 */
export interface MapFeatureProps {
  layer: 'roads' | 'water' | 'waterways' | 'landuse' | 'buildings' | 'addresses';
  minzoom: number;
  [key: string]: string | number;
}

/** Road classes the style draws, from OSM `highway` values (links take their road's class). */
const ROAD_CLASSES: Record<string, [cls: string, minzoom: number]> = {
  motorway: ['motorway', 5],
  trunk: ['trunk', 5],
  primary: ['primary', 8],
  secondary: ['secondary', 9],
  tertiary: ['tertiary', 10],
  unclassified: ['minor', 12],
  residential: ['minor', 12],
  living_street: ['minor', 12],
  road: ['minor', 12],
  service: ['service', 13],
  pedestrian: ['path', 14],
  footway: ['path', 14],
  path: ['path', 14],
  cycleway: ['path', 14],
  steps: ['path', 14],
  track: ['path', 14],
};

/** Landuse classes the style colours, from `landuse`, `leisure` and `natural` values. */
const LANDUSE_CLASSES: Record<string, string> = {
  residential: 'residential',
  commercial: 'commercial',
  retail: 'commercial',
  industrial: 'industrial',
  forest: 'wood',
  wood: 'wood',
  scrub: 'wood',
  grass: 'grass',
  meadow: 'grass',
  farmland: 'farmland',
  orchard: 'farmland',
  cemetery: 'cemetery',
  park: 'park',
  golf_course: 'park',
  pitch: 'park',
  recreation_ground: 'park',
  garden: 'park',
  beach: 'sand',
  sand: 'sand',
};

const WATER_AREAS = new Set(['water', 'bay']);
const WATERWAY_LINES: Record<string, number> = { river: 8, canal: 10, stream: 12, drain: 13, ditch: 13 };

/**
 * The builder `import osm` runs for the map: roads by class with their names, water and landuse
 * areas, waterways, building footprints, places and address numbers, cut into a tile archive the
 * server serves (see docs/adr/map-tiles.md). Places come from the place layer built before it.
 */
export async function buildMapFeatures(osm: OsmFile, dir: string): Promise<OsmBuildResult> {
  const features: MapFeature[] = [];
  const counts = { mapRoads: 0, mapAreas: 0, mapBuildings: 0, mapAddresses: 0 };
  const add = (geometry: Geometry, props: MapFeatureProps) =>
    features.push({ type: 'Feature', geometry, properties: props });

  for (const way of osm.ways) {
    const t = way.tags;
    if (t.highway && ROAD_CLASSES[baseHighway(t.highway)] && t.area !== 'yes') {
      const [cls, minzoom] = ROAD_CLASSES[baseHighway(t.highway)]!;
      const line = osm.wayPositions(way).map(round);
      if (line.length < 2) continue;
      add({ type: 'LineString', coordinates: line }, { layer: 'roads', minzoom, class: cls, ...named(t) });
      counts.mapRoads++;
    } else if (t.waterway && WATERWAY_LINES[t.waterway] !== undefined) {
      const line = osm.wayPositions(way).map(round);
      if (line.length < 2) continue;
      add(
        { type: 'LineString', coordinates: line },
        { layer: 'waterways', minzoom: WATERWAY_LINES[t.waterway]!, class: t.waterway, ...named(t) },
      );
    } else if (isClosed(way)) {
      const props = areaProps(t);
      if (!props) continue;
      const ring = osm.wayPositions(way).map(round);
      if (ring.length < 4) continue;
      add({ type: 'Polygon', coordinates: [ring] }, props);
      if (props.layer === 'buildings') counts.mapBuildings++;
      else counts.mapAreas++;
    }
  }

  // Multipolygon relations: lakes, bays and parks drawn from several ways (outer rings only; holes in
  // water and parks are rare at the zooms they show).
  const wayById = new Map<number, OsmWay>();
  for (const w of osm.ways) wayById.set(w.id, w);
  for (const rel of osm.relations) {
    if (rel.tags.type !== 'multipolygon') continue;
    const props = areaProps(rel.tags);
    if (!props) continue;
    const outer = rel.members
      .filter((m) => m.type === 'way' && m.role !== 'inner')
      .map((m) => wayById.get(m.ref)?.refs)
      .filter((r): r is number[] => r !== undefined);
    const rings = joinRings(outer)
      .map((refs) =>
        refs
          .map((r) => osm.position(r))
          .filter((p): p is Position => !!p)
          .map(round),
      )
      .filter((r) => r.length >= 4);
    if (rings.length === 0) continue;
    add({ type: 'MultiPolygon', coordinates: rings.map((r) => [r]) }, props);
    counts.mapAreas++;
  }

  // Address numbers: tagged nodes, and building outlines that carry one (at the outline's centre).
  for (const node of osm.taggedNodes) {
    const n = node.tags['addr:housenumber'];
    if (!n) continue;
    add({ type: 'Point', coordinates: round([node.lon, node.lat]) }, { layer: 'addresses', minzoom: 15, number: n });
    counts.mapAddresses++;
  }
  for (const way of osm.ways) {
    const n = way.tags['addr:housenumber'];
    if (!n || !isClosed(way)) continue;
    const ring = osm.wayPositions(way);
    if (ring.length < 3) continue;
    add({ type: 'Point', coordinates: round(centre(ring)) }, { layer: 'addresses', minzoom: 15, number: n });
    counts.mapAddresses++;
  }

  await addPlaces(dir, features);
  const tiles = writeTileArchive(join(dir, MAP_TILES_FILE), { name: osm.name, format: 'pbf' }, regionTiles(features));
  return { counts: { ...counts, mapTiles: tiles } };
}

/** Places (named POIs with their categories) from the place layer this import wrote before. */
async function addPlaces(dir: string, out: MapFeature[]): Promise<void> {
  const places = await openPlaceLayer(dir);
  for (let i = 0; i < (places?.count ?? 0); i++) {
    const p = places!.record(i);
    const props: MapFeature['properties'] = { layer: 'places', minzoom: p.chain ? 13 : 14, name: p.name, id: p.id };
    // Most specific category first, its top-level group last (food-beverage for a coffee shop).
    props.category = p.categories[0] ?? 'place';
    props.group = p.categories[p.categories.length - 1] ?? 'place';
    if (p.chain) props.chain = p.chain.slug;
    out.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties: props });
  }
}

/**
 * Every non-empty tile of the region at every zoom, cut once here so the server reads tiles instead
 * of cutting them (see docs/adr/map-tiles.md). Walks only the tiles over some feature's own box (with
 * the tile buffer): an extract of two distant areas (one fixture holds Liechtenstein and a county of
 * Alabama) has a region box over an ocean of empty tiles, millions of them at the deepest zooms.
 */
function* regionTiles(features: MapFeature[]): Generator<[TileCoord, Uint8Array]> {
  const boxes = features.map(featureBox);
  if (boxes.length === 0) return;
  const set = new TileSet(features);
  for (let z = 0; z <= TILE_MAX_ZOOM; z++) {
    const size = 2 ** z;
    const keys = new Set<number>();
    for (const [w, s, e, n] of boxes) {
      const [x0, y0] = tileFraction(w, n, size);
      const [x1, y1] = tileFraction(e, s, size);
      const [xa, xb] = [clampTile(x0 - TILE_MARGIN, size), clampTile(x1 + TILE_MARGIN, size)];
      const [ya, yb] = [clampTile(y0 - TILE_MARGIN, size), clampTile(y1 + TILE_MARGIN, size)];
      for (let x = xa; x <= xb; x++) for (let y = ya; y <= yb; y++) keys.add(x * size + y);
    }
    for (const key of [...keys].sort((a, b) => a - b)) {
      const x = Math.floor(key / size);
      const y = key % size;
      const data = set.tile({ z, x, y });
      if (data) yield [{ z, x, y }, data];
    }
  }
}

/** How far past its edge a tile takes features in, as a share of the tile (TileSet's buffer). */
const TILE_MARGIN = 64 / 4096;

function featureBox(f: MapFeature): [number, number, number, number] {
  let [w, s, e, n] = [180, 85, -180, -85];
  forEachPosition(f.geometry, (p) => {
    const lon = p[0]!;
    const lat = p[1]!;
    if (lon < w) w = lon;
    if (lon > e) e = lon;
    if (lat < s) s = lat;
    if (lat > n) n = lat;
  });
  return [w, s, e, n];
}

/** The tile coordinates of a position at a zoom of `size` tiles a side, with their fraction. */
function tileFraction(lon: number, lat: number, size: number): [number, number] {
  const r = (Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180;
  return [((lon + 180) / 360) * size, ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * size];
}

function clampTile(v: number, size: number): number {
  return Math.min(size - 1, Math.max(0, Math.floor(v)));
}

function baseHighway(highway: string): string {
  return highway.endsWith('_link') ? highway.slice(0, -5) : highway;
}

function named(t: OsmTags): Record<string, string> {
  const out: Record<string, string> = {};
  if (t.name) out.name = t.name;
  if (t.ref) out.ref = t.ref;
  return out;
}

/** The layer and class of a closed way or multipolygon, or null when the map does not draw it. */
function areaProps(t: OsmTags): MapFeatureProps | null {
  if (t.natural && WATER_AREAS.has(t.natural)) {
    return { layer: 'water', minzoom: 6, class: t.water ?? t.natural, ...named(t) };
  }
  if (t.waterway === 'riverbank' || t.landuse === 'reservoir' || t.landuse === 'basin') {
    return { layer: 'water', minzoom: 6, class: 'river', ...named(t) };
  }
  if (t.building && t.building !== 'no') return { layer: 'buildings', minzoom: 14 };
  const cls = LANDUSE_CLASSES[t.landuse ?? ''] ?? LANDUSE_CLASSES[t.leisure ?? ''] ?? LANDUSE_CLASSES[t.natural ?? ''];
  if (cls) return { layer: 'landuse', minzoom: 10, class: cls, ...named(t) };
  return null;
}

function isClosed(way: OsmWay): boolean {
  return way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
}

function centre(ring: Position[]): Position {
  let x = 0;
  let y = 0;
  for (const [lon, lat] of ring) {
    x += lon;
    y += lat;
  }
  return [x / ring.length, y / ring.length];
}

/** Seven decimals (about a centimetre) keep the file a third smaller than full doubles. */
function round(p: Position): Position {
  return [Math.round(p[0] * 1e7) / 1e7, Math.round(p[1] * 1e7) / 1e7];
}
