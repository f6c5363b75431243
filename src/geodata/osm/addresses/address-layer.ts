import type { OsmBuildResult } from '../import-osm.js';
import type { OsmFile } from '../osm-file.js';

/** The addresses, streets and intersections of one region, opened for geocoding. */
export interface AddressLayer {
  readonly count: number;
}

/** Writes the region's addresses, streets and intersections into `dir`. */
export async function buildAddressLayer(
  _osm: OsmFile,
  _dir: string,
  _progress: (m: string) => void,
): Promise<OsmBuildResult> {
  return { counts: {} };
}

/** Opens what {@link buildAddressLayer} wrote; null when the folder has none. */
export async function openAddressLayer(_dir: string): Promise<AddressLayer | null> {
  return null;
}
