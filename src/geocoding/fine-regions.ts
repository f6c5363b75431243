import type { AddressLayer } from '../geodata/osm/addresses/address-layer.js';
import { houseNumberKey } from '../geodata/osm/addresses/house-numbers.js';
import type { OsmRegion } from '../geodata/osm/osm-region.js';
import type { PlaceLayer } from '../geodata/osm/places/place-layer.js';
import type { GeodataPack } from '../geodata/pack.js';
import { typoVariants } from './typo-variants.js';

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

/**
 * The street keys one edit (deletion, transposition, substitution, insertion) away from `key` that some
 * region has, when `prefix` also those that some key starts with (returned as the typed-length prefix).
 */
export function typoStreetKeys(pack: GeodataPack, key: string, prefix = false): string[] {
  if (key.length > MAX_TYPO_LENGTH) return [];
  const out = new Set<string>();
  const layers = addressRegions(pack).map((r) => r.layer);
  for (const v of typoVariants(key)) {
    for (const layer of layers) {
      const [from, to] = layer.streetRange(v);
      if (from < to && (prefix || layer.streetKeys[from] === v)) {
        out.add(v);
        break;
      }
    }
  }
  return [...out];
}
