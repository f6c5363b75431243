import { readFile, writeFile } from 'node:fs/promises';
import type { Position } from '../geo/types.js';

/**
 * Polygons of one layer as flat typed arrays, the pack's on-disk and in-memory form.
 * A feature has one or more parts (the polygons of a MultiPolygon); a part has rings (outer ring first, then
 * holes); a ring is a closed run of `[lon, lat]` vertices in `coords`.
 */
export interface PolygonSet {
  /** Interleaved `[lon, lat, lon, lat, …]` in degrees. */
  coords: Float64Array;
  /** Vertex index where each ring starts; one extra entry closes the last ring. */
  ringStart: Uint32Array;
  /** Ring index where each part starts; one extra entry closes the last part. */
  partRingStart: Uint32Array;
  /** Feature index of each part. */
  partFeature: Uint32Array;
}

/** GeoJSON polygon coordinates, or MultiPolygon coordinates, `[lon, lat]` order. */
export type PolygonCoordinates = Position[][] | Position[][][];

const MAGIC = 0x47504157; // "WAPG" little-endian: refuses files that are not polygon packs
const HEADER_BYTES = 16;

/**
 * Packs one geometry per feature (Polygon or MultiPolygon coordinates, `[lon, lat]`) into a {@link PolygonSet}.
 * Feature `i` of the result is `geometries[i]`; empty geometries give a feature without parts.
 */
export function encodePolygons(geometries: PolygonCoordinates[]): PolygonSet {
  const coords: number[] = [];
  const ringStart: number[] = [];
  const partRingStart: number[] = [];
  const partFeature: number[] = [];
  geometries.forEach((geometry, feature) => {
    const parts = isMultiPolygon(geometry) ? geometry : [geometry];
    for (const part of parts) {
      if (part.length === 0) continue;
      partRingStart.push(ringStart.length);
      partFeature.push(feature);
      for (const ring of part) {
        ringStart.push(coords.length / 2);
        for (const [lon, lat] of ring) coords.push(lon, lat);
        const first = ring[0];
        const last = ring[ring.length - 1];
        // Ray casting walks edges vertex to vertex, so store every ring closed.
        if (first && last && (first[0] !== last[0] || first[1] !== last[1])) coords.push(first[0], first[1]);
      }
    }
  });
  ringStart.push(coords.length / 2);
  partRingStart.push(ringStart.length - 1);
  return {
    coords: Float64Array.from(coords),
    ringStart: Uint32Array.from(ringStart),
    partRingStart: Uint32Array.from(partRingStart),
    partFeature: Uint32Array.from(partFeature),
  };
}

function isMultiPolygon(geometry: PolygonCoordinates): geometry is Position[][][] {
  const firstRing = geometry[0];
  const firstItem = firstRing?.[0];
  return Array.isArray(firstItem?.[0]);
}

/** Writes a {@link PolygonSet} as one little-endian binary file (the arrays back to back after a header). */
export async function writePolygonFile(path: string, set: PolygonSet): Promise<void> {
  const header = new Uint32Array([MAGIC, set.coords.length / 2, set.ringStart.length, set.partFeature.length]);
  const chunks = [header, set.coords, set.ringStart, set.partRingStart, set.partFeature];
  await writeFile(path, Buffer.concat(chunks.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
}

/** Reads a file written by {@link writePolygonFile}; throws when the file is not one. */
export async function readPolygonFile(path: string): Promise<PolygonSet> {
  const file = await readFile(path);
  // Typed arrays need aligned offsets; a fresh copy of the bytes starts at offset 0.
  const bytes = file.byteOffset % 8 === 0 ? file : Buffer.from(new Uint8Array(file).buffer);
  const buffer = bytes.buffer;
  let offset = bytes.byteOffset;
  const header = new Uint32Array(buffer, offset, 4);
  if (header[0] !== MAGIC) throw new Error(`${path} is not a Whereabouts polygon file`);
  const vertices = header[1] ?? 0;
  const rings = header[2] ?? 0;
  const parts = header[3] ?? 0;
  offset += HEADER_BYTES;
  const coords = new Float64Array(buffer, offset, vertices * 2);
  offset += coords.byteLength;
  const ringStart = new Uint32Array(buffer, offset, rings);
  offset += ringStart.byteLength;
  const partRingStart = new Uint32Array(buffer, offset, parts + 1);
  offset += partRingStart.byteLength;
  const partFeature = new Uint32Array(buffer, offset, parts);
  return { coords, ringStart, partRingStart, partFeature };
}

/** One part (polygon) as flat rings: each ring `[lon, lat, lon, lat, …]`, outer ring first, then holes. */
export type FlatPolygon = Float64Array[];

/** A geometry's parts as flat rings: far less memory than `[lon, lat]` arrays for a national file. */
export function flatPolygons(geometry: PolygonCoordinates): FlatPolygon[] {
  const parts = isMultiPolygon(geometry) ? geometry : [geometry];
  return parts.map((rings) =>
    rings.map((ring) => {
      const flat = new Float64Array(ring.length * 2);
      ring.forEach(([lon, lat], i) => {
        flat[2 * i] = lon;
        flat[2 * i + 1] = lat;
      });
      return flat;
    }),
  );
}

/** The parts of each of `count` features of a set, as views on its arrays (nothing copied). */
export function featureParts(set: PolygonSet, count: number): FlatPolygon[][] {
  const out: FlatPolygon[][] = Array.from({ length: count }, () => []);
  for (let p = 0; p < set.partFeature.length; p++) {
    const rings: FlatPolygon = [];
    for (let r = set.partRingStart[p]!; r < set.partRingStart[p + 1]!; r++) {
      rings.push(set.coords.subarray(2 * set.ringStart[r]!, 2 * set.ringStart[r + 1]!));
    }
    out[set.partFeature[p]!]!.push(rings);
  }
  return out;
}

/** {@link encodePolygons} for flat parts: feature `i` of the result has the parts `features[i]`. */
export function encodeFlatPolygons(features: FlatPolygon[][]): PolygonSet {
  let values = 0;
  let rings = 0;
  let parts = 0;
  for (const f of features) {
    for (const part of f) {
      if (part.length === 0) continue;
      parts++;
      for (const ring of part) {
        rings++;
        values += ring.length + (isClosed(ring) ? 0 : 2);
      }
    }
  }
  const coords = new Float64Array(values);
  const ringStart = new Uint32Array(rings + 1);
  const partRingStart = new Uint32Array(parts + 1);
  const partFeature = new Uint32Array(parts);
  let v = 0;
  let r = 0;
  let p = 0;
  features.forEach((f, feature) => {
    for (const part of f) {
      if (part.length === 0) continue;
      partRingStart[p] = r;
      partFeature[p++] = feature;
      for (const ring of part) {
        ringStart[r++] = v / 2;
        coords.set(ring, v);
        v += ring.length;
        // Ray casting walks edges vertex to vertex, so store every ring closed.
        if (!isClosed(ring)) {
          coords[v++] = ring[0]!;
          coords[v++] = ring[1]!;
        }
      }
    }
  });
  ringStart[r] = v / 2;
  partRingStart[p] = r;
  return { coords, ringStart, partRingStart, partFeature };
}

function isClosed(ring: Float64Array): boolean {
  const n = ring.length;
  return n < 2 || (ring[0] === ring[n - 2] && ring[1] === ring[n - 1]);
}
