import { normalizeName } from '../geodata/normalize-name.js';
import { prefixRange } from '../geodata/osm/addresses/address-layer.js';
import type { PlaceLayer } from '../geodata/osm/places/place-layer.js';

/** Sorted search keys of a region's places: each name from each of its words on (`coffee bean`, `bean`). */
export interface PlaceNames {
  keys: string[];
  /** The place of each key. */
  place: Uint32Array;
  /** 1 where the key is the whole name (matches of the whole name rank first). */
  whole: Uint8Array;
  /** Every prefix of every key (typo variants are checked against it with one hash lookup). */
  prefixes: Set<string>;
}

const built = new WeakMap<PlaceLayer, PlaceNames>();

/** The name keys of a place layer, built on first use and kept with the layer. */
export function placeNames(layer: PlaceLayer): PlaceNames {
  const hit = built.get(layer);
  if (hit) return hit;
  const rows: [string, number, number][] = [];
  for (let i = 0; i < layer.count; i++) {
    const key = normalizeName(layer.record(i).name);
    if (!key) continue;
    rows.push([key, i, 1]);
    for (let at = key.indexOf(' '); at >= 0; at = key.indexOf(' ', at + 1)) rows.push([key.slice(at + 1), i, 0]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : b[2] - a[2]));
  const names: PlaceNames = {
    keys: rows.map((r) => r[0]),
    place: Uint32Array.from(rows, (r) => r[1]),
    whole: Uint8Array.from(rows, (r) => r[2]),
    prefixes: new Set(),
  };
  for (const [key] of rows) for (let n = 1; n <= key.length; n++) names.prefixes.add(key.slice(0, n));
  built.set(layer, names);
  return names;
}

/** `[from, to)` of the keys starting with `prefix`. */
export function placeRange(names: PlaceNames, prefix: string): [number, number] {
  return prefixRange(names.keys, prefix);
}
