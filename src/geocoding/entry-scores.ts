import { NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';
import { loadAddressParser } from './address-parser.js';
import { entityPoint, entityProminence } from './entity.js';
import { addressRegions, hasAddressStreet, placeRegions, typoStreetKeys } from './fine-regions.js';
import { keyRanges } from './key-ranges.js';
import { entryAreaSlots } from './locality-areas.js';
import { nextChars } from './next-chars.js';
import { placeNames } from './place-names.js';
import { qualifiedSlots } from './qualified-areas.js';
import { isRegionWord } from './region-words.js';

/** Per name-index entry: its entity's prominence and `[lon, lat]`, so ranking reads typed arrays only. */
export interface EntryScores {
  prominence: Float32Array;
  lon: Float32Array;
  lat: Float32Array;
}

const cache = new WeakMap<GeodataPack, EntryScores>();

/**
 * The entry scores of a pack, computed on first use (about 300,000 entries, tens of milliseconds) and
 * cached. Call {@link prepareGeocoding} at startup so that no request pays for it.
 */
export function entryScores(pack: GeodataPack): EntryScores {
  let scores = cache.get(pack);
  if (!scores) {
    const { kinds, ids, size } = pack.names;
    const l = pack.localities;
    scores = { prominence: new Float32Array(size), lon: new Float32Array(size), lat: new Float32Array(size) };
    // Two thirds of the entries are names of the same 200,000 places: score each place once.
    const placeProminence = new Float32Array(l.count).fill(Number.NaN);
    for (let e = 0; e < size; e++) {
      const entity = { kind: kinds[e] as NameKind, id: ids[e]! };
      if (entity.kind === NameKind.locality) {
        let p = placeProminence[entity.id]!;
        if (Number.isNaN(p)) p = placeProminence[entity.id] = entityProminence(pack, entity);
        scores.prominence[e] = p;
        scores.lon[e] = l.lon[entity.id]!;
        scores.lat[e] = l.lat[entity.id]!;
        continue;
      }
      scores.prominence[e] = entityProminence(pack, entity);
      const [lon, lat] = entityPoint(pack, entity);
      scores.lon[e] = lon;
      scores.lat[e] = lat;
    }
    cache.set(pack, scores);
  }
  return scores;
}

/**
 * Builds the geocoder's per-pack tables now rather than on the first request: with imported OSM regions,
 * also the address parser's dictionaries (about 2 s, once per process), the street and place name keys.
 */
export function prepareGeocoding(pack: GeodataPack): void {
  entryScores(pack);
  entryAreaSlots(pack);
  qualifiedSlots(pack, [], false);
  nextChars(pack.names);
  keyRanges(pack.names);
  isRegionWord(pack, '', false);
  if (addressRegions(pack).length > 0) {
    loadAddressParser();
    hasAddressStreet(pack, '');
    // Builds the street key prefixes that typo variants are checked against (~50 ms for a county).
    typoStreetKeys(pack, '');
  }
  for (const { layer } of placeRegions(pack)) placeNames(layer);
}
