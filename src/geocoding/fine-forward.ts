import { normalizeName } from '../geodata/normalize-name.js';
import { houseNumberKey, houseNumberValue } from '../geodata/osm/addresses/house-numbers.js';
import { lastWordForms, nearAffixes, streetKey } from '../geodata/osm/addresses/street-names.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import type { ParsedAddress } from './address-parser.js';
import { addressResult, interpolatedResult, intersectionResult, placeResult, streetResult } from './fine-address.js';
import { addressRegions, placeRegions, type StreetHit, streetsByKey, typoStreetKeys } from './fine-regions.js';
import { interpolate } from './interpolate.js';
import type { GeocodeLayer } from './layers.js';
import { placeNames, placeRange } from './place-names.js';

interface Scored {
  address: GeocodeAddress;
  score: number;
}

/**
 * Forward geocoding over the imported OSM regions, for a parsed query: an intersection (both streets must
 * meet), else number + street (`exact` when that address exists, `interpolated` when the number lies between
 * known numbers of the street, `fallback` to the street itself), else a street alone (`fallback`), else a
 * place whose whole name was typed (`exact`). Candidates in another postcode or state than the query names
 * are dropped; one in another locality ranks lower (GeoNames and OSM do not always agree on town names).
 * Returns an empty list when nothing fine matched.
 */
export function fineForward(
  pack: GeodataPack,
  query: string,
  parsed: ParsedAddress,
  wants: (l: GeocodeLayer) => boolean,
  limit: number,
): GeocodeAddress[] {
  const out: Scored[] = [];
  if (parsed.intersection) {
    if (wants('intersection')) out.push(...intersections(pack, parsed, parsed.intersection));
    if (out.length === 0 && wants('street'))
      out.push(...streets(pack, parsed, resolveStreets(pack, parsed.intersection[0])));
  } else if (parsed.street) {
    const found = resolveStreets(pack, parsed.street);
    if (parsed.number && wants('address')) {
      // Addresses are keyed by their own addr:street, which may name a way the extract lacks (a private
      // road): the street as typed is looked up before the street the typed name resolved to.
      out.push(...exactAddresses(pack, parsed, parsed.number, streetKey(parsed.street)));
      if (out.length === 0 && found.key !== streetKey(parsed.street))
        out.push(...exactAddresses(pack, parsed, parsed.number, found.key));
      if (out.length === 0) out.push(...interpolated(pack, parsed, parsed.number, found));
    }
    if (out.length === 0 && wants('street')) out.push(...streets(pack, parsed, found));
  }
  if (out.length === 0 && wants('place')) out.push(...places(pack, query, parsed));
  // A building and its entrance often carry the same address: one result per formatted address.
  const seen = new Set<string>();
  return out
    .sort((a, b) => b.score - a.score)
    .filter((s) => !seen.has(s.address.formattedAddress) && seen.add(s.address.formattedAddress))
    .slice(0, limit)
    .map((s) => s.address);
}

/**
 * The streets a typed name means: same key, else one typo away: in a street type or direction word
 * (`223rd Ssreet`, `Nrth Broadway`, whose keys hold `st` and `n`, not the words typed), else anywhere.
 */
export function resolveStreets(pack: GeodataPack, typed: string): { key: string; hits: StreetHit[] } {
  const key = streetKey(typed);
  let hits = streetsByKey(pack, key);
  // An unfinished or odd street type (`Springfield Bl`): the types it may stand for.
  const words = key.split(' ');
  if (hits.length === 0 && words.length > 1) {
    const head = words.slice(0, -1).join(' ');
    for (const form of lastWordForms(words.at(-1)!)) {
      const found = streetsByKey(pack, `${head} ${form}`);
      if (found.length > 0) return { key: `${head} ${form}`, hits: found };
    }
  }
  if (hits.length === 0) {
    for (let i = 0; i < words.length; i++) {
      for (const form of nearAffixes(words[i]!)) {
        const fixed = [...words.slice(0, i), form, ...words.slice(i + 1)].join(' ');
        const found = streetsByKey(pack, fixed);
        if (found.length > 0) return { key: fixed, hits: found };
      }
    }
  }
  if (hits.length === 0 && key.replace(/[^a-z]/g, '').length >= 4) {
    for (const k of typoStreetKeys(pack, key)) hits = hits.concat(streetsByKey(pack, k));
    return { key: hits[0]?.layer.streetKeys[hits[0].street] ?? key, hits };
  }
  return { key, hits };
}

function exactAddresses(pack: GeodataPack, parsed: ParsedAddress, number: string, street: string): Scored[] {
  const out: Scored[] = [];
  const key = `${houseNumberKey(number)} ${street}`;
  for (const { layer } of addressRegions(pack)) {
    const [from, to] = layer.addressRange(key);
    for (let i = from; i < to; i++) {
      if (layer.addressKeys[i] !== key) continue;
      const address = addressResult(pack, layer, i);
      const score = contextScore(parsed, address);
      if (score !== null) out.push({ address: { ...address, confidence: 'exact' }, score: score + 10 });
    }
  }
  return out;
}

function interpolated(
  pack: GeodataPack,
  parsed: ParsedAddress,
  number: string,
  found: { hits: StreetHit[] },
): Scored[] {
  const out: Scored[] = [];
  const value = houseNumberValue(number);
  for (const { layer, street } of found.hits) {
    const at = interpolate(layer, street, value);
    if (!at) continue;
    const postcode = layer.address(at.neighbour).postcode || undefined;
    const address = interpolatedResult(pack, layer, street, number, at.point, postcode);
    const score = contextScore(parsed, address);
    if (score !== null) out.push({ address: { ...address, confidence: 'interpolated' }, score: score + 5 });
  }
  return out;
}

function streets(pack: GeodataPack, parsed: ParsedAddress, found: { hits: StreetHit[] }): Scored[] {
  const out: Scored[] = [];
  for (const { layer, street } of found.hits) {
    const address = streetResult(pack, layer, street);
    // A street's label point may lie in a neighbouring ZIP: the street's postcode does not drop it.
    const score = contextScore({ ...parsed, postcode: undefined }, address);
    if (score !== null) out.push({ address: { ...address, confidence: 'fallback' }, score });
  }
  return out;
}

function intersections(pack: GeodataPack, parsed: ParsedAddress, [a, b]: [string, string]): Scored[] {
  const first = resolveStreets(pack, a).hits;
  const second = resolveStreets(pack, b).hits;
  const out: Scored[] = [];
  for (const x of first) {
    for (const y of second) {
      if (x.layer !== y.layer) continue;
      for (const i of x.layer.intersectionsOf(x.street, y.street)) {
        const address = intersectionResult(pack, x.layer, i, x.street);
        const score = contextScore({ ...parsed, postcode: undefined }, address);
        if (score !== null) out.push({ address: { ...address, confidence: 'exact' }, score: score + 10 });
      }
    }
  }
  return out;
}

function places(pack: GeodataPack, query: string, parsed: ParsedAddress): Scored[] {
  const name = normalizeName(query.split(',')[0] ?? '');
  if (!name) return [];
  const out: Scored[] = [];
  for (const { layer } of placeRegions(pack)) {
    const names = placeNames(layer);
    const [from, to] = placeRange(names, name);
    for (let k = from; k < to && out.length < 200; k++) {
      if (names.keys[k] !== name || !names.whole[k]) continue;
      const address = placeResult(pack, layer.record(names.place[k]!));
      const score = contextScore(parsed, address);
      if (score !== null) out.push({ address: { ...address, confidence: 'exact' }, score: score + 8 });
    }
  }
  return out;
}

/**
 * How well a candidate agrees with the query's postcode, locality and region: null when the postcode or
 * the state contradicts it, else +2 for a matching postcode, +1 for a matching locality (city, county or
 * neighbourhood), -1 for one that matches none of them.
 */
export function contextScore(parsed: ParsedAddress, a: GeocodeAddress): number | null {
  let score = 0;
  if (parsed.postcode) {
    const zip = parsed.postcode.slice(0, 5);
    if (a.postalCode && a.postalCode.slice(0, 5) !== zip) return null;
    if (a.postalCode) score += 2;
  }
  if (parsed.region) {
    const r = normalizeName(parsed.region);
    const ok = r === normalizeName(a.stateCode ?? '') || r === normalizeName(a.state ?? '');
    if (!ok && (a.stateCode || a.state)) return null;
  }
  if (parsed.locality) {
    const l = normalizeName(parsed.locality);
    const names = [a.city, a.county, a.neighborhood].map((n) => normalizeName(n ?? ''));
    score += names.some((n) => n && (n === l || n.startsWith(`${l} `) || l.startsWith(`${n} `))) ? 1 : -1;
  }
  return score;
}
