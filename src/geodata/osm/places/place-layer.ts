import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import { bboxAround } from '../../../geo/bbox-around.js';
import { distanceMeters, METERS_PER_DEGREE } from '../../../geo/distance-meters.js';
import { polygonBoundaryDistanceMeters } from '../../../geo/polygon-boundary-distance-meters.js';
import { polygonContains } from '../../../geo/polygon-contains.js';
import { type PreparedPolygon, preparePolygon } from '../../../geo/prepare-polygon.js';
import { encodePolygons, type PolygonSet, readPolygonFile, writePolygonFile } from '../../polygon-file.js';
import { readTable, writeTable } from '../../table-file.js';
import type { OsmFile } from '../osm-file.js';
import type { OsmBuildResult } from '../osm-layer-builder.js';
import { loadChainCatalogue } from './chains.js';
import { extractPlaces } from './extract-places.js';
import type { PlaceRecord } from './place-record.js';

/** A place found near a point, with its distance in meters. */
export interface NearbyPlace {
  index: number;
  distance: number;
}

/** The places (named POIs with categories and chains) of one region, opened for queries. */
export interface PlaceLayer {
  readonly count: number;
  /** The place at index `i` (0 <= i < count). */
  record(i: number): PlaceRecord;
  /** Places whose point lies within `radiusMeters` of a point, nearest first, at most `limit`. */
  nearby(lon: number, lat: number, radiusMeters: number, limit: number, filter?: (i: number) => boolean): NearbyPlace[];
  /** Whether place `i` has a footprint (a building or area outline), not just a point. */
  hasFootprint(i: number): boolean;
  /**
   * Meters from a point to place `i`: 0 inside its footprint, else the distance to the footprint's edge,
   * or to the place's point when it has none.
   */
  distanceTo(i: number, lon: number, lat: number): number;
  /** Area of place `i`'s footprint in square meters (holes not subtracted); 0 for a point place. */
  areaSquareMeters(i: number): number;
  /** Places whose footprint contains the point. */
  containing(lon: number, lat: number): number[];
  /** The index of the place with this id, or -1. */
  indexOf(id: string): number;
}

const TABLE = 'places.table';
const FOOTPRINTS = 'place-footprints.bin';

/** Writes the region's places into `dir`: a column table of places and a polygon file of footprints. */
export async function buildPlaceLayer(
  osm: OsmFile,
  dir: string,
  progress: (m: string) => void,
): Promise<OsmBuildResult> {
  progress('loading name-suggestion-index');
  const chains = await loadChainCatalogue();
  progress('extracting places');
  const { places, counts } = extractPlaces(osm, chains);
  const strings = {
    id: places.map((p) => p.id),
    name: places.map((p) => p.name),
    categories: places.map((p) => p.categories.join(' ')),
    chainName: places.map((p) => p.chain?.name ?? ''),
    chainSlug: places.map((p) => p.chain?.slug ?? ''),
    address: places.map((p) => (p.address ? JSON.stringify(p.address) : '')),
  };
  await writeTable(join(dir, TABLE), {
    strings,
    numbers: {
      lon: Float64Array.from(places, (p) => p.lon),
      lat: Float64Array.from(places, (p) => p.lat),
    },
    meta: {},
  });
  await writePolygonFile(join(dir, FOOTPRINTS), encodePolygons(places.map((p) => p.footprint ?? [])));
  return {
    counts: { places: places.length, ...counts },
    notes:
      places.length > 0
        ? ['chains matched with name-suggestion-index; NSI location sets outside country level are approximated']
        : [],
  };
}

/** Opens the places written by {@link buildPlaceLayer}; null when the folder has none. */
export async function openPlaceLayer(dir: string): Promise<PlaceLayer | null> {
  if (!existsSync(join(dir, TABLE))) return null;
  const [table, footprints] = await Promise.all([
    readTable(join(dir, TABLE)),
    existsSync(join(dir, FOOTPRINTS)) ? readPolygonFile(join(dir, FOOTPRINTS)) : null,
  ]);
  // As arrays: a region's places are read by field as records are built (a lead: StringColumns here too).
  const strings = Object.fromEntries(Object.entries(table.strings).map(([name, column]) => [name, column.toArray()]));
  return new OpenPlaceLayer(
    strings as unknown as PlaceColumns,
    table.numbers.lon as Float64Array,
    table.numbers.lat as Float64Array,
    footprints,
  );
}

interface PlaceColumns {
  id: string[];
  name: string[];
  categories: string[];
  chainName: string[];
  chainSlug: string[];
  address: string[];
}

class OpenPlaceLayer implements PlaceLayer {
  readonly count: number;
  private readonly points: KDBush;
  /** Footprint parts per place, prepared on first use. */
  private readonly parts = new Map<number, number[]>();
  private readonly prepared = new Map<number, PreparedPolygon>();
  private readonly partIndex: Flatbush | null;
  private readonly records: Array<PlaceRecord | undefined>;
  private byId: Map<string, number> | undefined;
  private areas: Float64Array | undefined;

  constructor(
    private readonly cols: PlaceColumns,
    private readonly lons: Float64Array,
    private readonly lats: Float64Array,
    private readonly footprints: PolygonSet | null,
  ) {
    this.count = cols.id.length;
    this.records = new Array(this.count);
    this.points = new KDBush(Math.max(1, this.count));
    for (let i = 0; i < this.count; i++) this.points.add(lons[i]!, lats[i]!);
    if (this.count === 0) this.points.add(0, 0);
    this.points.finish();
    this.partIndex = footprints && footprints.partFeature.length > 0 ? indexParts(footprints) : null;
    if (footprints) {
      footprints.partFeature.forEach((feature, part) => {
        const list = this.parts.get(feature);
        if (list) list.push(part);
        else this.parts.set(feature, [part]);
      });
    }
  }

  record(i: number): PlaceRecord {
    const cached = this.records[i];
    if (cached) return cached;
    const c = this.cols;
    const r: PlaceRecord = {
      id: c.id[i]!,
      name: c.name[i]!,
      lon: this.lons[i]!,
      lat: this.lats[i]!,
      categories: c.categories[i] ? c.categories[i]!.split(' ') : [],
    };
    if (c.chainSlug[i]) r.chain = { name: c.chainName[i]!, slug: c.chainSlug[i]! };
    if (c.address[i]) r.address = JSON.parse(c.address[i]!);
    this.records[i] = r;
    return r;
  }

  nearby(lon: number, lat: number, radiusMeters: number, limit: number, filter?: (i: number) => boolean) {
    if (this.count === 0 || limit <= 0) return [];
    // A box query then exact distances: cheaper than a nearest-first walk when a filter rejects most
    // points (a chain's few stores among thousands of places).
    const out: NearbyPlace[] = [];
    for (const [x0, y0, x1, y1] of bboxAround([lon, lat], radiusMeters)) {
      for (const index of this.points.range(x0, y0, x1, y1)) {
        if (filter && !filter(index)) continue;
        const distance = distanceMeters([lon, lat], [this.lons[index]!, this.lats[index]!]);
        if (distance <= radiusMeters) out.push({ index, distance });
      }
    }
    out.sort((a, b) => a.distance - b.distance || a.index - b.index);
    return out.length > limit ? out.slice(0, limit) : out;
  }

  hasFootprint(i: number): boolean {
    return this.parts.has(i);
  }

  distanceTo(i: number, lon: number, lat: number): number {
    const parts = this.parts.get(i);
    if (!parts) return distanceMeters([lon, lat], [this.lons[i]!, this.lats[i]!]);
    let best = Infinity;
    for (const part of parts) {
      const p = this.polygon(part);
      if (polygonContains(p, lon, lat)) return 0;
      best = Math.min(best, polygonBoundaryDistanceMeters(p, lon, lat));
    }
    return best;
  }

  containing(lon: number, lat: number): number[] {
    if (!this.partIndex || !this.footprints) return [];
    const out: number[] = [];
    for (const part of this.partIndex.search(lon, lat, lon, lat)) {
      const feature = this.footprints.partFeature[part]!;
      if (!out.includes(feature) && polygonContains(this.polygon(part), lon, lat)) out.push(feature);
    }
    return out;
  }

  areaSquareMeters(i: number): number {
    const parts = this.parts.get(i);
    if (!parts || !this.footprints) return 0;
    this.areas ??= new Float64Array(this.count).fill(Number.NaN);
    let area = this.areas[i]!;
    if (Number.isNaN(area)) {
      area = 0;
      for (const part of parts) area += outerRingArea(this.footprints, part);
      this.areas[i] = area;
    }
    return area;
  }

  indexOf(id: string): number {
    this.byId ??= new Map(this.cols.id.map((x, i) => [x, i]));
    return this.byId.get(id) ?? -1;
  }

  private polygon(part: number): PreparedPolygon {
    let p = this.prepared.get(part);
    if (!p) {
      p = preparePolygon({ type: 'Polygon', coordinates: partRings(this.footprints!, part) });
      this.prepared.set(part, p);
    }
    return p;
  }
}

function partRings(set: PolygonSet, part: number): Array<Array<[number, number]>> {
  const rings: Array<Array<[number, number]>> = [];
  for (let r = set.partRingStart[part]!; r < set.partRingStart[part + 1]!; r++) {
    const ring: Array<[number, number]> = [];
    for (let v = set.ringStart[r]!; v < set.ringStart[r + 1]!; v++)
      ring.push([set.coords[2 * v]!, set.coords[2 * v + 1]!]);
    rings.push(ring);
  }
  return rings;
}

/** Square meters inside a part's outer ring (shoelace formula on a local equirectangular projection). */
function outerRingArea(set: PolygonSet, part: number): number {
  const r = set.partRingStart[part]!;
  const start = set.ringStart[r]!;
  const end = set.ringStart[r + 1]!;
  if (end - start < 3) return 0;
  const c = set.coords;
  const kx = METERS_PER_DEGREE * Math.cos((c[2 * start + 1]! * Math.PI) / 180);
  let sum = 0;
  for (let v = start; v + 1 < end; v++) {
    sum +=
      c[2 * v]! * kx * (c[2 * v + 3]! * METERS_PER_DEGREE) - c[2 * v + 2]! * kx * (c[2 * v + 1]! * METERS_PER_DEGREE);
  }
  return Math.abs(sum) / 2;
}

function indexParts(set: PolygonSet): Flatbush {
  const index = new Flatbush(set.partFeature.length);
  for (let part = 0; part < set.partFeature.length; part++) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    // Outer ring only: holes lie inside it.
    const r = set.partRingStart[part]!;
    for (let v = set.ringStart[r]!; v < set.ringStart[r + 1]!; v++) {
      const x = set.coords[2 * v]!;
      const y = set.coords[2 * v + 1]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    index.add(x0, y0, x1, y1);
  }
  index.finish();
  return index;
}
