import { createOSMStream } from 'osm-pbf-parser-node';
import type { Position } from '../../geo/types.js';

/** OSM tags of one element. */
export type OsmTags = Record<string, string>;

/** A node that carries tags (untagged nodes are kept only as coordinates). */
export interface OsmNode {
  id: number;
  lon: number;
  lat: number;
  tags: OsmTags;
}

export interface OsmWay {
  id: number;
  /** Node ids in order; a closed way repeats its first id last. */
  refs: number[];
  tags: OsmTags;
}

export interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

export interface OsmRelation {
  id: number;
  members: OsmMember[];
  tags: OsmTags;
}

/**
 * One `.osm.pbf` extract held in memory: every node's coordinates in sorted typed arrays (an extract of a
 * county or an island is a few million nodes at most), the tagged nodes, and all ways and relations.
 * Extracts are clipped at their border, so ways may name nodes the file lacks: `wayPositions` skips them
 * and counts them in `missingNodeRefs`.
 */
export class OsmFile {
  /** Node references that named a node absent from the file, counted as builders resolve them. */
  missingNodeRefs = 0;

  constructor(
    /** File name (no folder), for manifests. */
    readonly name: string,
    private readonly nodeIds: Float64Array,
    private readonly lons: Float64Array,
    private readonly lats: Float64Array,
    readonly taggedNodes: readonly OsmNode[],
    readonly ways: readonly OsmWay[],
    readonly relations: readonly OsmRelation[],
  ) {}

  get nodeCount(): number {
    return this.nodeIds.length;
  }

  /** Index of a node in the coordinate arrays, or -1 when the extract lacks it. */
  nodeIndex(id: number): number {
    const ids = this.nodeIds;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid]!;
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** `[lon, lat]` of a node, or undefined (and counted as missing) when the extract lacks it. */
  position(id: number): Position | undefined {
    const i = this.nodeIndex(id);
    if (i < 0) {
      this.missingNodeRefs++;
      return undefined;
    }
    return [this.lons[i]!, this.lats[i]!];
  }

  /** The positions of a way's nodes that the file holds, in order; missing ones are skipped and counted. */
  wayPositions(way: OsmWay): Position[] {
    const out: Position[] = [];
    for (const ref of way.refs) {
      const p = this.position(ref);
      if (p) out.push(p);
    }
    return out;
  }
}

/** Reads a whole `.osm.pbf` file. `onProgress` gets the share of elements read so far (by kind, roughly). */
export async function readOsmFile(path: string, onProgress?: (message: string) => void): Promise<OsmFile> {
  let ids: Float64Array = new Float64Array(1 << 16);
  let lons: Float64Array = new Float64Array(1 << 16);
  let lats: Float64Array = new Float64Array(1 << 16);
  let n = 0;
  let sorted = true;
  const taggedNodes: OsmNode[] = [];
  const ways: OsmWay[] = [];
  const relations: OsmRelation[] = [];
  let seen = 0;
  for await (const item of createOSMStream(path, { withInfo: false }) as AsyncGenerator<RawElement>) {
    if (item.type === 'node') {
      if (n === ids.length) {
        ids = grow(ids);
        lons = grow(lons);
        lats = grow(lats);
      }
      if (n > 0 && item.id < ids[n - 1]!) sorted = false;
      ids[n] = item.id;
      lons[n] = item.lon;
      lats[n] = item.lat;
      n++;
      if (item.tags && hasKeys(item.tags))
        taggedNodes.push({ id: item.id, lon: item.lon, lat: item.lat, tags: item.tags });
    } else if (item.type === 'way') {
      ways.push({ id: item.id, refs: item.refs, tags: item.tags ?? {} });
    } else if (item.type === 'relation') {
      relations.push({ id: item.id, members: item.members, tags: item.tags ?? {} });
    } else {
      continue;
    }
    if (++seen % 200_000 === 0) onProgress?.(`read ${seen.toLocaleString('en-US')} elements`);
  }
  ids = ids.slice(0, n);
  lons = lons.slice(0, n);
  lats = lats.slice(0, n);
  // PBF writers sort by id, but the format does not promise it; binary search needs it.
  if (!sorted) ({ ids, lons, lats } = sortById(ids, lons, lats));
  const name = path.split(/[\\/]/).pop() ?? path;
  return new OsmFile(name, ids, lons, lats, taggedNodes, ways, relations);
}

interface RawElement {
  type: 'node' | 'way' | 'relation' | undefined;
  id: number;
  lat: number;
  lon: number;
  refs: number[];
  members: OsmMember[];
  tags?: OsmTags;
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

function grow(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function sortById(ids: Float64Array, lons: Float64Array, lats: Float64Array) {
  const order = Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
  return {
    ids: Float64Array.from(order, (i) => ids[i]!),
    lons: Float64Array.from(order, (i) => lons[i]!),
    lats: Float64Array.from(order, (i) => lats[i]!),
  };
}
