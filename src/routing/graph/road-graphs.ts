import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Flatbush from 'flatbush';
import type { OsmFile } from '../../geodata/osm/osm-file.js';
import type { OsmBuildResult } from '../../geodata/osm/osm-layer-builder.js';
import { type NumberColumn, readTable, writeTable } from '../../geodata/table-file.js';
import { buildModeNetwork, type ModeNetwork } from './build-mode-graph.js';
import { contract, type Hierarchy } from './contract.js';
import { ModeGraph } from './mode-graph.js';
import { type GraphMode, ROUTING_MODES } from './profiles.js';

/** The car, bike, foot and truck graphs of one region, opened for routing. */
export interface RoadGraphs {
  readonly modes: readonly GraphMode[];
  graph(mode: GraphMode): ModeGraph | null;
}

const fileOf = (dir: string, mode: GraphMode) => join(dir, `roads-${mode}.bin`);

const NETWORK_COLUMNS = [
  'junctionLon',
  'junctionLat',
  'chainStart',
  'coordLon',
  'coordLat',
  'coordMeasure',
  'chainFrom',
  'chainTo',
  'chainFwdSec',
  'chainBwdSec',
  'nodeJunction',
  'edgeFrom',
  'edgeTo',
  'edgeSec',
  'edgeMeters',
  'edgeChainDir',
] as const;
const HIERARCHY_COLUMNS = [
  'rank',
  'upStart',
  'upNode',
  'upWeight',
  'upMeters',
  'upVia',
  'downStart',
  'downNode',
  'downWeight',
  'downMeters',
  'downVia',
] as const;
/** Signed columns are stored as their unsigned bit pattern (the table format has no Int32). */
const SIGNED = new Set(['upVia', 'downVia']);

interface GraphMeta {
  mode: GraphMode;
  restrictions: number;
}

/**
 * Builds and writes the routable graphs of the region into `dir`: per mode, the junction network, its
 * contraction hierarchy and a flatbush index of road segments, in one binary table file each.
 */
export async function buildRoadGraphs(
  osm: OsmFile,
  dir: string,
  progress: (m: string) => void,
): Promise<OsmBuildResult> {
  const counts: Record<string, number> = {};
  const notes: string[] = [];
  for (const mode of ROUTING_MODES) {
    progress(`road graph (${mode}): network`);
    const net = buildModeNetwork(osm, mode);
    const nodes = net.nodeJunction.length;
    progress(`road graph (${mode}): contracting ${nodes.toLocaleString('en-US')} junctions`);
    const ch = contract({
      nodeCount: nodes,
      from: net.edgeFrom,
      to: net.edgeTo,
      weight: net.edgeSec,
      meters: net.edgeMeters,
    });
    const index = segmentIndex(net);
    const numbers: Record<string, NumberColumn> = {};
    for (const name of NETWORK_COLUMNS) numbers[name] = net[name];
    if (net.chainMotorbikeSec) numbers.chainMotorbikeSec = net.chainMotorbikeSec;
    for (const name of HIERARCHY_COLUMNS) {
      const col = ch[name];
      numbers[name] = col instanceof Int32Array ? new Uint32Array(col.buffer, col.byteOffset, col.length) : col;
    }
    numbers.segments = new Uint8Array(index.data as ArrayBuffer);
    await writeTable(fileOf(dir, mode), {
      strings: {},
      numbers,
      meta: { mode, restrictions: net.restrictions } satisfies GraphMeta,
    });
    counts[`${mode}Edges`] = net.edgeFrom.length;
    counts[`${mode}Shortcuts`] = ch.upNode.length + ch.downNode.length - net.edgeFrom.length;
    if (ch.coreSize > 0) counts[`${mode}CoreJunctions`] = ch.coreSize;
    if (mode === 'car') counts.turnRestrictions = net.restrictions;
  }
  if (counts.carEdges === 0) notes.push('no drivable roads: routes here fall back to estimates');
  return { counts, notes };
}

/** A flatbush over every segment, keyed by its first point's coordinate index. */
function segmentIndex(net: ModeNetwork): Flatbush {
  const ids: number[] = [];
  for (let c = 0; c + 1 < net.chainStart.length; c++) {
    for (let i = net.chainStart[c]!; i + 1 < net.chainStart[c + 1]!; i++) ids.push(i);
  }
  const index = new Flatbush(Math.max(1, ids.length));
  for (const i of ids) {
    const x0 = net.coordLon[i]!;
    const y0 = net.coordLat[i]!;
    const x1 = net.coordLon[i + 1]!;
    const y1 = net.coordLat[i + 1]!;
    index.add(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
  }
  if (ids.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  // Flatbush hands back insertion order; map it to coordinate indexes by rewriting its id array.
  const indices = (index as unknown as { _indices: Uint32Array | Uint16Array })._indices;
  // The first numItems entries are the leaves; the rest point into the tree and stay.
  for (let k = 0; k < ids.length; k++) indices[k] = ids[indices[k]!]!;
  return index;
}

/** Opens what {@link buildRoadGraphs} wrote; null when the folder has none. */
export async function openRoadGraphs(dir: string): Promise<RoadGraphs | null> {
  const graphs = new Map<GraphMode, ModeGraph>();
  for (const mode of ROUTING_MODES) {
    const path = fileOf(dir, mode);
    if (!existsSync(path)) continue;
    const table = await readTable<GraphMeta>(path);
    const col = (name: string) => {
      const c = table.numbers[name];
      if (!c) throw new Error(`${path} lacks column ${name}: import the region again`);
      return SIGNED.has(name) ? new Int32Array(c.buffer, c.byteOffset, c.length) : c;
    };
    const net = Object.fromEntries(NETWORK_COLUMNS.map((n) => [n, col(n)])) as unknown as ModeNetwork;
    net.restrictions = table.meta.restrictions;
    // Optional: packs imported before motorbikes were timed lack it (their motorbikes time as cars).
    const motorbike = table.numbers.chainMotorbikeSec;
    if (motorbike instanceof Float64Array) net.chainMotorbikeSec = motorbike;
    const ch = Object.fromEntries(HIERARCHY_COLUMNS.map((n) => [n, col(n)])) as unknown as Hierarchy;
    const seg = col('segments') as Uint8Array;
    graphs.set(mode, new ModeGraph(net, ch, Flatbush.from(seg.buffer as ArrayBuffer, seg.byteOffset)));
  }
  if (graphs.size === 0) return null;
  return { modes: [...graphs.keys()], graph: (mode) => graphs.get(mode) ?? null };
}
