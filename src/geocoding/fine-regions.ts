import type { AddressLayer } from '../geodata/osm/addresses/address-layer.js';
import { houseNumberKey } from '../geodata/osm/addresses/house-numbers.js';
import type { OsmRegion } from '../geodata/osm/osm-region.js';
import type { PlaceLayer } from '../geodata/osm/places/place-layer.js';
import type { GeodataPack } from '../geodata/pack.js';

/** A street of one region's address layer. */
export interface StreetHit {
  layer: AddressLayer;
  street: number;
}

/** The imported regions that have addresses and streets. */
export function addressRegions(pack: GeodataPack): { region: OsmRegion; layer: AddressLayer }[] {
  const out: { region: OsmRegion; layer: AddressLayer }[] = [];
  for (const region of pack.osmRegions ?? []) if (region.addresses) out.push({ region, layer: region.addresses });
  return out;
}

/** The imported regions that have places. */
export function placeRegions(pack: GeodataPack): { region: OsmRegion; layer: PlaceLayer }[] {
  const out: { region: OsmRegion; layer: PlaceLayer }[] = [];
  for (const region of pack.osmRegions ?? []) if (region.places) out.push({ region, layer: region.places });
  return out;
}

/** Every street, in every region, whose key is exactly `key`. */
export function streetsByKey(pack: GeodataPack, key: string): StreetHit[] {
  const out: StreetHit[] = [];
  for (const { layer } of addressRegions(pack)) {
    const [from, to] = layer.streetRange(key);
    for (let s = from; s < to; s++) if (layer.streetKeys[s] === key) out.push({ layer, street: s });
  }
  return out;
}

/**
 * Whether some address is tagged with street key `key` though no highway of the region has it (a private
 * road): found by the addresses' own keys, `<number> <street>`, through a per-layer set built once.
 */
export function hasAddressStreet(pack: GeodataPack, key: string): boolean {
  for (const { layer } of addressRegions(pack)) if (addressStreetKeys(layer).has(key)) return true;
  return false;
}

const streetKeySets = new WeakMap<AddressLayer, Set<string>>();

function addressStreetKeys(layer: AddressLayer): Set<string> {
  let keys = streetKeySets.get(layer);
  if (!keys) {
    keys = new Set();
    for (let i = 0; i < layer.count; i++) {
      const a = layer.address(i);
      keys.add(layer.addressKeys[i]!.slice(houseNumberKey(a.number).length + 1));
    }
    streetKeySets.set(layer, keys);
  }
  return keys;
}

// Variants of a 30-letter street are ~2,200 strings: fine for a fallback, not worth it beyond that.
const MAX_TYPO_LENGTH = 30;

const prefixSets = new WeakMap<AddressLayer, Set<string>>();

/** Every prefix of every street key of a layer, so a typo variant is checked with one hash lookup. */
function streetPrefixes(layer: AddressLayer): Set<string> {
  let set = prefixSets.get(layer);
  if (!set) {
    set = new Set();
    for (const key of layer.streetKeys) for (let n = 1; n <= key.length; n++) set.add(key.slice(0, n));
    prefixSets.set(layer, set);
  }
  return set;
}

/**
 * The street keys one edit (deletion, transposition, substitution, insertion) away from `key` that some
 * region has, when `prefix` also those that some key starts with (returned as the typed-length prefix).
 */
export function typoStreetKeys(pack: GeodataPack, key: string, prefix = false): string[] {
  if (key.length > MAX_TYPO_LENGTH) return [];
  const layers = addressRegions(pack).map((r) => r.layer);
  const sets = layers.map(streetPrefixes);
  const out: string[] = [];
  for (const v of oneEditPrefixes(key, (p) => sets.some((set) => set.has(p)))) {
    if (prefix || layers.some((l) => l.streetKeys[l.streetRange(v)[0]] === v)) out.push(v);
  }
  return out;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789 ';

/**
 * The strings one edit away from `s` for which `isPrefix` holds, generated only where they can: an edit
 * at position i needs `s[0..i)` to be a prefix already, so a typo in the fourth letter costs a few hundred
 * candidates, not the ~75 per letter of every variant (see `typoVariants`).
 */
export function oneEditPrefixes(s: string, isPrefix: (p: string) => boolean): Set<string> {
  let viable = 0;
  while (viable < s.length && isPrefix(s.slice(0, viable + 1))) viable++;
  const out = new Set<string>();
  for (let i = 0; i <= Math.min(viable, s.length - 1); i++) {
    const head = s.slice(0, i);
    addVariant(out, s, head + s.slice(i + 1), isPrefix);
    if (i + 1 < s.length) addVariant(out, s, head + s[i + 1] + s[i] + s.slice(i + 2), isPrefix);
    for (const c of ALPHABET) {
      addVariant(out, s, head + c + s.slice(i + 1), isPrefix);
      addVariant(out, s, head + c + s.slice(i), isPrefix);
    }
  }
  if (viable === s.length) for (const c of ALPHABET) addVariant(out, s, s + c, isPrefix);
  return out;
}

// A module function, not a closure made per call: tsx's keepNames wraps each named closure it makes.
function addVariant(out: Set<string>, s: string, v: string, isPrefix: (p: string) => boolean): void {
  if (v !== s && isPrefix(v)) out.add(v);
}
