import { BorderIndex } from '../../border-index.js';
import { type OpenPolygonLayer, readPolygonLayer, writePolygonLayer } from '../../layer-files.js';
import type { OsmBuildResult, OsmLayerBuilder } from '../osm-layer-builder.js';
import { BOUNDARY_ROLES, type BoundaryRecord, type BoundaryRole } from './boundary-record.js';
import { extractBoundaries } from './extract-boundaries.js';

/** `import osm`'s boundaries step: writes `boundaries-<role>.json/.bin` into the region folder. */
export const buildBoundaryLayer: OsmLayerBuilder = async (osm, dir): Promise<OsmBuildResult> => {
  const { layers, clipped, land } = extractBoundaries(osm);
  const counts: Record<string, number> = {};
  for (const role of BOUNDARY_ROLES) {
    await writePolygonLayer(dir, `boundaries-${role}`, layers[role]);
    counts[`boundaries.${role}`] = layers[role].records.length;
  }
  const notes: string[] = [];
  if (clipped > 0) notes.push(`${clipped} administrative boundaries cut by the extract's edge were left out`);
  if (land) notes.push('administrative areas trimmed to the coastline');
  return { counts, notes };
};

/** One role's areas of an imported region, with the edge index its border distances use. */
export interface BoundaryLayer extends OpenPolygonLayer<BoundaryRecord> {
  border: BorderIndex;
}

export type BoundaryLayers = Record<BoundaryRole, BoundaryLayer | null>;

/** Opens a region folder's boundaries; null when it was imported before boundaries were kept. */
export async function openBoundaryLayers(dir: string): Promise<BoundaryLayers | null> {
  const opened = await Promise.all(
    BOUNDARY_ROLES.map((role) => readPolygonLayer<BoundaryRecord>(dir, `boundaries-${role}`)),
  );
  if (opened.every((l) => l === null)) return null;
  const out = {} as BoundaryLayers;
  BOUNDARY_ROLES.forEach((role, i) => {
    const layer = opened[i];
    out[role] = layer && layer.records.length > 0 ? { ...layer, border: new BorderIndex(layer.index.set) } : null;
  });
  return out;
}
