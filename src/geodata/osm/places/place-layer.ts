import type { OsmBuildResult } from '../import-osm.js';
import type { OsmFile } from '../osm-file.js';

/** The places (named POIs with categories and chains) of one region, opened for queries. */
export interface PlaceLayer {
  readonly count: number;
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
