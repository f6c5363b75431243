import { NameKind } from '../geodata/name-index.js';
import { normalizeName } from '../geodata/normalize-name.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import { entityAddress } from './entity.js';
import { entryScores } from './entry-scores.js';
import { fineAutocomplete } from './fine-autocomplete.js';
import { addressRegions, placeRegions } from './fine-regions.js';
import { mergeMatches } from './forward-geocode.js';
import type { GeocodeLayer } from './layers.js';
import { localityResult } from './locality-result.js';
import { bestNameMatches, type EntryScore, MatchWeight } from './name-matches.js';
import { approxDistanceKm, distanceKm } from './nearest-locality.js';
import { queryReadings } from './parse-query.js';
import { recentCompletions } from './recent-completions.js';
import { plausibleReadings } from './region-words.js';

/** Options of {@link autocomplete}. */
export interface AutocompleteOptions {
  /** `[lon, lat]` in degrees to favour results near. */
  near?: [number, number];
  /** Concrete layers to answer (see `expandLayers`); all when absent. */
  layers?: Set<GeocodeLayer>;
  /** 1–100, default 10; clamped into that range. */
  limit?: number;
  /** ISO 3166-1 alpha-2 codes to restrict results to (upper case; any of them). */
  country?: readonly string[];
}

// The `near` bias: worth as much as six orders of magnitude of population at the point itself, fading
// with distance (e-fold every 150 km), so a nearby town outranks a far city of the same name.
const NEAR_WEIGHT = 3;
const NEAR_SCALE_KM = 150;

/**
 * Completes a partial query: names that start with it or are one typo away (`honol`, `hnolulu`), over the
 * same entities and qualifiers as `forwardGeocode` (`paris, t`). Ranked by how well the name matched (a
 * whole word only a little above a prefix: `par` means Paris before Par), prominence (population) and
 * closeness to `near`. Each result carries `distance` in metres from `near` when given.
 */
export function autocomplete(pack: GeodataPack, query: string, opts: AutocompleteOptions = {}): GeocodeAddress[] {
  const limit = Math.min(100, Math.max(1, Math.floor(opts.limit ?? 10)));
  const layers = opts.layers ? [...opts.layers].sort().join(',') : '*';
  const key = `${query}\u0000${opts.near?.join(',') ?? ''}\u0000${limit}\u0000${layers}\u0000${opts.country?.join(',') ?? ''}`;
  return recentCompletions(pack, key, () => completions(pack, query, opts, limit));
}

function completions(pack: GeodataPack, query: string, opts: AutocompleteOptions, limit: number): GeocodeAddress[] {
  if (addressRegions(pack).length === 0 && placeRegions(pack).length === 0)
    return coarseAutocomplete(pack, query, { ...opts, limit });
  const fine = fineAutocomplete(pack, query, { near: opts.near, layers: opts.layers, limit, country: opts.country });
  // Merge: a locality or area whose whole name was typed first (`jamaica` the town before Jamaica Ave),
  // unless the query starts with a number (an address); then fine prefix matches, fine matches through a
  // typo within reach of `near`, the other coarse matches, and the remaining typo matches.
  const text = normalizeName(query.split(',')[0] ?? '');
  const numeric = /^\d/.test(text);
  // An address query (a number and a street) that found addresses needs no coarse matches: they would all
  // rank below them, and the world names hold no house numbers.
  if (numeric && fine.prefix.length > 0 && (/[a-z]/.test(text) || fine.prefix.length >= limit))
    return fine.prefix.slice(0, limit);
  if (numeric && fine.typo.length > 0 && /[a-z]/.test(text)) return fine.typo.slice(0, limit);
  // World names one typo away are only looked for when no street, address or place matched as typed
  // (`springfield bou` is a street being typed, not a misspelt town): the variants cost a millisecond.
  const coarse = coarseAutocomplete(pack, query, { ...opts, limit }, fine.prefix.length === 0);
  const whole = numeric ? [] : coarse.filter((a) => normalizeName(a.addressLabel) === text);
  const rest = coarse.filter((a) => !whole.includes(a));
  const near = Boolean(opts.near);
  return [
    ...whole,
    ...fine.prefix,
    ...fine.typo.filter((a) => withinReach(a, near)),
    ...rest,
    ...fine.typo.filter((a) => !withinReach(a, near)),
  ].slice(0, limit);
}

// A street or place one typo away within this distance of `near` outranks far-away coarse matches.
const TYPO_REACH_M = 50_000;

// Module functions and inline arrows, not named closures, on the per-query path: tsx's keepNames wraps
// each named closure in a defineProperty call (~0.4 µs) every time it is made.
function withinReach(a: GeocodeAddress, near: boolean): boolean {
  return !near || (a.distance ?? 0) <= TYPO_REACH_M;
}

/** Coarse scores: match weight (exact only a little above a prefix), prominence, closeness to `near`. */
function nearScore(pack: GeodataPack, near: [number, number] | undefined): EntryScore {
  const { prominence, lon, lat } = entryScores(pack);
  return (e, weight) => {
    const s = Math.min(weight, MatchWeight.prefix + 0.5) + 0.5 * prominence[e]!;
    if (!near) return s;
    return s + NEAR_WEIGHT * Math.exp(-approxDistanceKm(near[0], near[1], lon[e]!, lat[e]!) / NEAR_SCALE_KM);
  };
}

/** Autocomplete over the world pack's names only (localities, areas, postal codes). */
function coarseAutocomplete(
  pack: GeodataPack,
  query: string,
  opts: AutocompleteOptions,
  typos = true,
): GeocodeAddress[] {
  const limit = Math.min(100, Math.max(1, Math.floor(opts.limit ?? 10)));
  const near = opts.near;
  const score = nearScore(pack, near);
  const readings = plausibleReadings(pack, queryReadings(query), true);
  const lists = readings.map((r, i) =>
    bestNameMatches(
      pack,
      r.name,
      {
        layers: opts.layers,
        country: opts.country,
        qualifiers: r.qualifiers,
        qualifierPrefix: true,
        prefix: true,
        // Typos on the whole query (or its name before a comma) only: split readings repeat the variants.
        typos: typos && i === 0,
      },
      score,
      limit,
    ),
  );
  return mergeMatches(lists, limit).map((m) => {
    if (m.kind === NameKind.locality) {
      const l = pack.localities;
      const d = near ? Math.round(distanceKm(near[0], near[1], l.lon[m.id]!, l.lat[m.id]!) * 1000) : undefined;
      return localityResult(pack, m.id, d);
    }
    const address = entityAddress(pack, m);
    if (near) address.distance = Math.round(distanceKm(near[0], near[1], address.longitude, address.latitude) * 1000);
    return address;
  });
}
