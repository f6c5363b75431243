import type { OsmBuildResult } from '../import-osm.js';
import type { OsmFile } from '../osm-file.js';

/** Address parts a place carries in its own `addr:*` tags (absent parts are left out). */
export interface PlaceAddress {
  number?: string;
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/** One place of a region: a named POI from a tagged node, a building/area way or a multipolygon. */
export interface PlaceRecord {
  /** Stable across re-imports: `osm-n<id>`, `osm-w<id>` or `osm-r<id>`. */
  id: string;
  name: string;
  /** Position of the node, or a point inside the footprint. */
  lon: number;
  lat: number;
  /** Category slugs, most specific first, with their parents (a coffee shop is also food-beverage). */
  categories: string[];
  chain?: { name: string; slug: string };
  address?: PlaceAddress;
}

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
  /** Places within `radiusMeters` of a point, nearest first, at most `limit`. */
  nearby(lon: number, lat: number, radiusMeters: number, limit: number): NearbyPlace[];
}

/** Writes the region's places into `dir`. */
export async function buildPlaceLayer(
  _osm: OsmFile,
  _dir: string,
  _progress: (m: string) => void,
): Promise<OsmBuildResult> {
  return { counts: {} };
}

/** Opens the places written by {@link buildPlaceLayer}; null when the folder has none. */
export async function openPlaceLayer(_dir: string): Promise<PlaceLayer | null> {
  return null;
}
