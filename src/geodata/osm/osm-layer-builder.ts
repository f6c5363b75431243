import type { OsmFile } from './osm-file.js';

/** What one builder added to a region folder: counts for the manifest and notes on what is approximate. */
export interface OsmBuildResult {
  counts: Record<string, number>;
  notes?: string[];
}

/** Writes one kind of data (places, addresses, road graphs) from an extract into a region folder. */
export type OsmLayerBuilder = (
  osm: OsmFile,
  dir: string,
  progress: (message: string) => void,
) => Promise<OsmBuildResult>;
