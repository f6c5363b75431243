import { normalizeName } from '../geodata/normalize-name.js';
import { type AddressLayer, metersBetween } from '../geodata/osm/addresses/address-layer.js';
import { canonicalWord, lastWordForms, streetKey } from '../geodata/osm/addresses/street-names.js';
import type { PlaceLayer } from '../geodata/osm/places/place-layer.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import { addressResult, intersectionResult, placeResult, streetResult } from './fine-address.js';
import { addressRegions, oneEditPrefixes, placeRegions, typoStreetKeys } from './fine-regions.js';
import type { GeocodeLayer } from './layers.js';
import { type PlaceNames, placeNames, placeRange } from './place-names.js';

/** A fine completion before it is built into an address: what it is, how well it matched, and where. */
interface Hit {
  kind: 'address' | 'street' | 'place' | 'intersection';
  layer: AddressLayer | PlaceLayer;
  index: number;
  weight: number;
  lon: number;
  lat: number;
  /** Dedup key: the same key within a block is one result (units of a building, pieces of a street). */
  key: string;
  score: number;
  /** Meters from `near` (0 without it). */
  distance: number;
  /** Intersections: the street typed first, named first. */
  first?: number;
}

/**
 * The best hits seen so far, at most `size`, best first: a one-digit prefix offers thousands of addresses,
 * and only those that beat the current worst are ever made into objects.
 */
class TopHits {
  readonly list: Hit[] = [];
  constructor(
    private readonly size: number,
    private readonly near: [number, number] | undefined,
  ) {}

  /** Meters from `near` of the point last scored (0 without `near`). */
  distance = 0;

  /**
   * The score of a hit of `weight` at `[lon, lat]`; its distance from `near` is left in `distance` (no
   * pair made per candidate: a house number prefix scans thousands).
   */
  score(weight: number, lon: number, lat: number): number {
    if (!this.near) {
      this.distance = 0;
      return weight;
    }
    const d = metersBetween(this.near[0], this.near[1], lon, lat);
    this.distance = d;
    return weight + NEAR_WEIGHT * Math.exp(-d / NEAR_SCALE_M);
  }

  /** Whether a hit of this score would be kept. */
  wants(score: number): boolean {
    return this.list.length < this.size || score > this.list[this.list.length - 1]!.score;
  }

  add(hit: Hit): void {
    const l = this.list;
    let i = l.length;
    while (i > 0 && better(hit, l[i - 1]!)) i--;
    l.splice(i, 0, hit);
    if (l.length > this.size) l.pop();
  }
}

function better(a: Hit, b: Hit): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.key.length !== b.key.length) return a.key.length < b.key.length;
  return a.key < b.key;
}

/** Fine completions: those matching the typed prefix, and those reached only through a typo. */
export interface FineCompletions {
  prefix: GeocodeAddress[];
  typo: GeocodeAddress[];
}

// Match weights: a whole name typed beats a prefix beats a typo; addresses lead when the query starts with
// a number (people type the number first).
const W_WHOLE = 3;
const W_PREFIX = 2;
const W_TYPO = 1;
// `near` bias: two match levels' worth at the point itself, fading with distance (e-fold every 3 km), so
// `89-1` finds the 89-1x addresses near the user before the same numbers across the county.
const NEAR_WEIGHT = 2;
const NEAR_SCALE_M = 3_000;
// A one-digit prefix matches thousands of addresses: only this many per region are looked at (key order).
const MAX_SCAN = 5_000;
const TYPO_MIN_LETTERS = 4;

/**
 * Completes a partial query over the imported regions' addresses (`89-12 springf` → `89-12 Springfield
 * Blvd`), streets, places and intersections (`Springfield Blvd & jam`). The typed text is normalized and its street types and directions brought to
 * their key form (`Boulevard` → `blvd`); the last word may be unfinished (`boul` also means `blvd`). When
 * fewer than `limit` match as typed, street and place names one typo away are tried. Ranked by match
 * weight and closeness to `near`.
 */
export function fineAutocomplete(
  pack: GeodataPack,
  query: string,
  opts: { near?: [number, number]; layers?: Set<GeocodeLayer>; limit: number; country?: readonly string[] },
): FineCompletions {
  const { layers } = opts;
  const text = normalizeName(query.split(',')[0] ?? '');
  if (!text) return { prefix: [], typo: [] };
  const words = text.split(' ');
  const last = words.pop()!;
  const head = words.map(canonicalWord).join(' ');
  const prefixes = lastWordForms(last).map((f) => (head ? `${head} ${f}` : f));
  const startsWithNumber = /^\d/.test(text);

  // Room for duplicates (units of one building, pieces of one street) that ranking folds together.
  const size = opts.limit * 3 + 10;
  const hits = new TopHits(size, opts.near);
  const addresses = wantsLayer(layers, 'address') && startsWithNumber;
  for (const { layer } of addressRegions(pack)) {
    for (const p of prefixes) {
      if (addresses) addAddresses(hits, layer, p, W_PREFIX + 0.5);
      if (wantsLayer(layers, 'street')) addStreets(hits, layer, p, text);
    }
  }
  if (wantsLayer(layers, 'place')) {
    for (const { layer } of placeRegions(pack)) addPlaces(hits, layer, text, false);
  }
  const crossing = CROSSING.exec(query.split(',')[0] ?? '');
  if (crossing && wantsLayer(layers, 'intersection')) {
    for (const { layer } of addressRegions(pack)) addIntersections(hits, layer, crossing[1]!, crossing[2] ?? '');
  }
  const prefix = rank(pack, hits, opts);

  // Typos are only looked for when nothing matches as typed: a query that matches is rarely misspelt,
  // and the variants cost a millisecond or more.
  let typo: GeocodeAddress[] = [];
  if (prefix.length === 0) {
    const typoHits = new TopHits(size, opts.near);
    // The street part: what follows the leading numbers (a Queens number is two: `89 12`).
    const numberWords = (text.match(/^(\d+[a-z]?\s)+/)?.[0] ?? '').trim();
    const streetPart = [head, last]
      .filter(Boolean)
      .join(' ')
      .slice(numberWords ? numberWords.length + 1 : 0);
    if (streetPart.replace(/[^a-z]/g, '').length >= TYPO_MIN_LETTERS) {
      for (const v of typoStreetKeys(pack, streetPart, true)) {
        for (const { layer } of addressRegions(pack)) {
          if (addresses && numberWords) addAddresses(typoHits, layer, `${numberWords} ${v}`, W_TYPO + 0.5);
          if (wantsLayer(layers, 'street') && !numberWords) addStreets(typoHits, layer, v, '', W_TYPO);
        }
      }
    }
    if (wantsLayer(layers, 'place') && !startsWithNumber && text.replace(/[^a-z]/g, '').length >= TYPO_MIN_LETTERS) {
      for (const { layer } of placeRegions(pack)) addPlaces(typoHits, layer, text, true);
    }
    typo = rank(pack, typoHits, opts);
  }
  return { prefix, typo };
}

/** Whether `layers` (all when absent) holds `l`. */
function wantsLayer(layers: Set<GeocodeLayer> | undefined, l: GeocodeLayer): boolean {
  return !layers || layers.has(l);
}

const CROSSING = /^(.+?)\s+(?:&|and|at|@|\/)(?:\s+(.*))?$/i;

/**
 * Crossings of the street typed first (its whole name, `Springfield Blvd &`) with the streets whose key
 * starts with what follows (`jama` → Jamaica Ave; nothing yet: every crossing of the first street).
 */
function addIntersections(hits: TopHits, layer: AddressLayer, first: string, second: string): void {
  const [from, to] = layer.streetRange(streetKey(first));
  const firstKey = streetKey(first);
  const streets = new Set<number>();
  for (let st = from; st < to; st++) if (layer.streetKeys[st] === firstKey) streets.add(st);
  if (streets.size === 0) return;
  const text = normalizeName(second);
  const words = text ? text.split(' ') : [];
  const last = words.pop();
  const head = words.map(canonicalWord).join(' ');
  const prefixes = last === undefined ? [''] : lastWordForms(last).map((f) => (head ? `${head} ${f}` : f));
  for (let i = 0; i < layer.intersectionCount; i++) {
    const x = layer.intersection(i);
    const other = streets.has(x.a) ? x.b : streets.has(x.b) ? x.a : -1;
    if (other < 0) continue;
    const key = layer.streetKeys[other]!;
    if (!prefixes.some((p) => key.startsWith(p))) continue;
    const score = hits.score(W_PREFIX, x.lon, x.lat);
    if (hits.wants(score))
      hits.add({
        kind: 'intersection',
        layer,
        index: i,
        weight: W_PREFIX,
        lon: x.lon,
        lat: x.lat,
        key,
        score,
        distance: hits.distance,
        first: other === x.b ? x.a : x.b,
      });
  }
}

function addAddresses(hits: TopHits, layer: AddressLayer, prefix: string, weight: number): void {
  const [from, to] = layer.addressRange(prefix);
  for (let i = from; i < Math.min(to, from + MAX_SCAN); i++) {
    const lon = layer.addressLon(i);
    const lat = layer.addressLat(i);
    const score = hits.score(weight, lon, lat);
    if (!hits.wants(score)) continue;
    hits.add({
      kind: 'address',
      layer,
      index: i,
      weight,
      lon,
      lat,
      key: layer.addressKeys[i]!,
      score,
      distance: hits.distance,
    });
  }
}

function addStreets(hits: TopHits, layer: AddressLayer, prefix: string, typed: string, weight = W_PREFIX): void {
  const [from, to] = layer.streetRange(prefix);
  for (let s = from; s < to; s++) {
    const [lon, lat] = layer.streetPoint(s);
    const key = layer.streetKeys[s]!;
    const w = key === typed ? W_WHOLE : weight;
    const score = hits.score(w, lon, lat);
    if (hits.wants(score))
      hits.add({ kind: 'street', layer, index: s, weight: w, lon, lat, key, score, distance: hits.distance });
  }
}

function addPlaces(hits: TopHits, layer: PlaceLayer, text: string, typos: boolean): void {
  const names = placeNames(layer);
  if (!typos) {
    addPlaceRange(hits, layer, names, text, text, W_PREFIX + 0.25);
    return;
  }
  for (const v of oneEditPrefixes(text, (p) => names.prefixes.has(p)))
    addPlaceRange(hits, layer, names, text, v, W_TYPO);
}

/** The places whose name key starts with `prefix`; a whole name typed as `text` weighs most. */
function addPlaceRange(
  hits: TopHits,
  layer: PlaceLayer,
  names: PlaceNames,
  text: string,
  prefix: string,
  weight: number,
): void {
  const [from, to] = placeRange(names, prefix);
  for (let k = from; k < Math.min(to, from + MAX_SCAN); k++) {
    const p = layer.record(names.place[k]!);
    const whole = names.whole[k] === 1;
    const w = whole && names.keys[k] === text ? W_WHOLE : whole ? weight : weight - 0.25;
    const score = hits.score(w, p.lon, p.lat);
    if (hits.wants(score))
      hits.add({
        kind: 'place',
        layer,
        index: names.place[k]!,
        weight: w,
        lon: p.lon,
        lat: p.lat,
        key: p.id,
        score,
        distance: hits.distance,
      });
  }
}

/** The best hits, one per key and block, built into addresses with `distance` from `near`. */
function rank(
  pack: GeodataPack,
  hits: TopHits,
  opts: { near?: [number, number]; limit: number; country?: readonly string[] },
): GeocodeAddress[] {
  const out: GeocodeAddress[] = [];
  const seen = new Map<string, [number, number][]>();
  const cc = opts.country;
  for (const h of hits.list) {
    if (out.length >= opts.limit) break;
    const dup = `${h.kind} ${h.key}`;
    const near500 = seen.get(dup);
    if (near500?.some(([x, y]) => metersBetween(x, y, h.lon, h.lat) < 500)) continue;
    const address =
      h.kind === 'address'
        ? addressResult(pack, h.layer as AddressLayer, h.index)
        : h.kind === 'street'
          ? streetResult(pack, h.layer as AddressLayer, h.index)
          : h.kind === 'intersection'
            ? intersectionResult(pack, h.layer as AddressLayer, h.index, h.first)
            : placeResult(pack, (h.layer as PlaceLayer).record(h.index));
    if (cc && (address.countryCode === undefined || !cc.includes(address.countryCode))) continue;
    if (opts.near) address.distance = Math.round(h.distance);
    if (near500) near500.push([h.lon, h.lat]);
    else seen.set(dup, [[h.lon, h.lat]]);
    out.push(address);
  }
  return out;
}
