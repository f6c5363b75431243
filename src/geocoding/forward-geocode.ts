import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import { type ParsedAddress, parseAddress, parseAddressLine } from './address-parser.js';
import { entityAddress } from './entity.js';
import { entryScores } from './entry-scores.js';
import { fineForward } from './fine-forward.js';
import { addressRegions, hasAddressStreet, placeRegions, streetsByKey } from './fine-regions.js';
import { FINE_LAYERS, type GeocodeLayer } from './layers.js';
import { bestNameMatches, type EntryScore, type MatchOptions, type NameMatch } from './name-matches.js';
import { queryReadings } from './parse-query.js';
import { plausibleReadings } from './region-words.js';

/** Options of {@link forwardGeocode}. */
export interface ForwardOptions {
  /** Concrete layers to answer (see `expandLayers`); all when absent. */
  layers?: Set<GeocodeLayer>;
  /** ISO 3166-1 alpha-2 codes to restrict results to (upper case; any of them). */
  country?: readonly string[];
  /** Most results to return; 10 by default. */
  limit?: number;
}

// A code (`HI`, `LI`) typed alone almost always means the area it codes, not a place of that name.
const CODE_BONUS = 2;

/**
 * Forward geocodes a free-text query. With imported OSM regions the query is parsed as an address first
 * (see `fineForward`: addresses, interpolated numbers, streets, intersections, places); when that finds
 * nothing, an address query falls back to its postcode, locality or region (`fallback`), and any other
 * query is answered by {@link coarseForward}. Without imported regions a full address still answers its
 * postcode or locality as a fallback. A place whose whole name was typed follows the exact coarse
 * matches of its name.
 */
export function forwardGeocode(pack: GeodataPack, query: string, opts: ForwardOptions = {}): GeocodeAddress[] {
  const limit = opts.limit ?? 10;
  const hasFine = addressRegions(pack).length > 0 || placeRegions(pack).length > 0;
  const wants = (l: GeocodeLayer) => !opts.layers || opts.layers.has(l);
  if (!hasFine || !FINE_LAYERS.some(wants)) {
    const coarse = coarseForward(pack, query, opts);
    // A full address where no region is imported (`20 W 34th St, New York`): its ZIP or town, as a fallback.
    if (coarse[0]?.confidence === 'exact' || !ADDRESS_LINE.test(query)) return coarse;
    const parsed = parseAddressLine(query);
    return parsed ? addressFallback(pack, parsed, opts) : coarse;
  }
  const parsed = parseAddress(query, (key) => streetsByKey(pack, key).length > 0 || hasAddressStreet(pack, key));
  const cc = opts.country;
  const inCountry = (a: GeocodeAddress) => !cc || (a.countryCode !== undefined && cc.includes(a.countryCode));
  let fine = fineForward(pack, query, parsed, wants, limit).filter(inCountry);
  // pelias-parser may split a street with a typo in its type word (`Manor Roed`) where the canonical
  // line reads it whole: a second reading before falling back.
  const line = fine.length === 0 ? parseAddressLine(query) : null;
  if (line && line.street !== parsed.street) fine = fineForward(pack, query, line, wants, limit).filter(inCountry);
  const addressLike = Boolean(parsed.number || parsed.intersection || (parsed.street && parsed.locality));
  if (fine.length > 0 && addressLike) return fine;
  if (fine.length === 0 && addressLike) return addressFallback(pack, parsed, opts);
  const coarse = coarseForward(pack, query, opts);
  const ordered = coarse[0]?.confidence === 'exact' ? [...coarse, ...fine] : [...fine, ...coarse];
  return ordered.slice(0, limit);
}

// `<number> <word>`: a line that may be a street address (`20 W 34th St`, `89-12 Springfield Blvd`).
const ADDRESS_LINE = /^\s*\d+[a-z]?(?:-\d+[a-z]?)?\s+[^\s,]*[a-z]/i;

// The areas an address's town may be, most specific first: a town typed in an address is never the state
// of the same name (`New York`) when a locality of that name exists.
const TOWN_LAYERS: readonly GeocodeLayer[] = ['locality', 'neighborhood', 'county'];

/**
 * What an address no street matched still says: its postcode, else its town (within its state), else its
 * state, each with `confidence: 'fallback'`; empty only when none of them matches.
 */
function addressFallback(pack: GeodataPack, parsed: ParsedAddress, opts: ForwardOptions): GeocodeAddress[] {
  const asFallback = (list: GeocodeAddress[]) => list.map((a) => ({ ...a, confidence: 'fallback' as const }));
  const within = (layers: readonly GeocodeLayer[]) => {
    const kept = layers.filter((l) => !opts.layers || opts.layers.has(l));
    return kept.length > 0 ? { ...opts, layers: new Set(kept) } : null;
  };
  const zip = parsed.postcode?.slice(0, 5);
  const postal = within(['postalCode']);
  if (zip && postal) {
    const found = coarseForward(pack, zip, postal);
    if (found.length > 0) return asFallback(found);
  }
  const town = within(TOWN_LAYERS);
  if (parsed.locality && town) {
    const found = coarseForward(pack, [parsed.locality, parsed.region].filter(Boolean).join(', '), town);
    if (found.length > 0) return asFallback(found);
  }
  // A region alone (`…, CA`) is the state of that code, not Canada.
  const state = parsed.locality ? opts : within(['state']);
  const rest = [parsed.locality, parsed.region].filter(Boolean).join(', ');
  return rest && state ? asFallback(coarseForward(pack, rest, state)) : [];
}
/**
 * Forward geocodes a free-text query against the pack's names: localities, neighbourhoods, ZIP codes,
 * counties, states and countries (codes too), optionally qualified (`paris, tx`, `paris texas`). Results whose
 * name matches as typed come first, ranked by prominence (population; primary names before alternate ones),
 * with `confidence: 'exact'`; only when nothing matches exactly are prefix and one-typo matches returned,
 * with `confidence: 'fallback'`. Fine layers are not answered here.
 */
export function coarseForward(pack: GeodataPack, query: string, opts: ForwardOptions = {}): GeocodeAddress[] {
  const limit = opts.limit ?? 10;
  const { prominence } = entryScores(pack);
  const base = { layers: opts.layers, country: opts.country };
  const all = queryReadings(query);
  const readings = plausibleReadings(pack, all, false);

  const exactScore: EntryScore = (e, weight, byCode) => weight + prominence[e]! + (byCode ? CODE_BONUS : 0);
  const exact = readings.map((r) =>
    bestNameMatches(pack, r.name, { ...base, qualifiers: r.qualifiers }, exactScore, limit),
  );
  const exactTop = mergeMatches(exact, limit);
  if (exactTop.length > 0) return exactTop.map((m) => ({ ...entityAddress(pack, m), confidence: 'exact' as const }));

  // A qualifier that names no area (`honolulu, oahu`) still leaves the name to look up, as a fallback.
  const first = all[0];
  if (first && first.qualifiers.length > 0 && !readings.includes(first))
    readings.push({ name: first.name, qualifiers: [] });
  const looseScore: EntryScore = (e, weight) => weight + 0.5 * prominence[e]!;
  const loose = readings.map((r) => {
    const o: MatchOptions = { ...base, qualifiers: r.qualifiers, prefix: true, typos: true };
    return bestNameMatches(pack, r.name, o, looseScore, limit);
  });
  return mergeMatches(loose, limit).map((m) => ({ ...entityAddress(pack, m), confidence: 'fallback' as const }));
}

/** The `limit` best of several readings' matches, one per entity (readings can find the same one twice). */
export function mergeMatches(lists: NameMatch[][], limit: number): NameMatch[] {
  const best = new Map<number, NameMatch>();
  for (const m of lists.flat()) {
    const key = m.kind * 2 ** 25 + m.id;
    const seen = best.get(key);
    if (!seen || m.score > seen.score) best.set(key, m);
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
