import type { OsmBuildResult } from '../../geodata/osm/import-osm.js';
import type { OsmFile } from '../../geodata/osm/osm-file.js';

/** The car, bike and foot graphs of one region, opened for routing. */
export interface RoadGraphs {
  readonly modes: readonly string[];
}

/** Builds and writes the routable graphs of the region into `dir`. */
export async function buildRoadGraphs(
  _osm: OsmFile,
  _dir: string,
  _progress: (m: string) => void,
): Promise<OsmBuildResult> {
  return { counts: {} };
}

/** Opens what {@link buildRoadGraphs} wrote; null when the folder has none. */
export async function openRoadGraphs(_dir: string): Promise<RoadGraphs | null> {
  return null;
}
