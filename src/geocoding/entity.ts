import { NameKind } from '../geodata/name-index.js';
import { normalizeName } from '../geodata/normalize-name.js';
import type { GeodataPack } from '../geodata/pack.js';
import { type GeocodeAddress, makeAddress } from './address.js';
import { areaRecord, entityContext, usCountry } from './entity-context.js';
import type { Entity } from './entity-ref.js';
import type { GeocodeLayer } from './layers.js';
import { perLocalityArea } from './locality-areas.js';

/** The result layer of an entity. */
export function entityLayer(pack: GeodataPack, { kind, id }: Entity): GeocodeLayer {
  switch (kind) {
    case NameKind.locality:
      return pack.localities.isNeighborhood(id) ? 'neighborhood' : 'locality';
    case NameKind.zip:
    case NameKind.postalArea:
      return 'postalCode';
    case NameKind.county:
      return 'county';
    case NameKind.state:
    case NameKind.admin1:
      return 'state';
    default:
      return 'country';
  }
}

/** `[lon, lat]` of an entity: the place itself, the ZIP point, or the area's label point. */
export function entityPoint(pack: GeodataPack, { kind, id }: Entity): [number, number] {
  switch (kind) {
    case NameKind.locality:
      return [pack.localities.lon[id]!, pack.localities.lat[id]!];
    case NameKind.zip:
      return [pack.zips.columns.lon[id]!, pack.zips.columns.lat[id]!];
    default: {
      const r = areaRecord(pack, kind, id);
      return [r?.lon ?? 0, r?.lat ?? 0];
    }
  }
}

/**
 * How prominent an entity is, on a log10-of-population scale: big cities and states outrank small ones of
 * the same name. Areas use the summed population of their localities; a county, and a non-US admin-1 area
 * (`Vaduz`, `Paris`), ranks below its eponymous city, a US state or a country a little above its biggest
 * one, as people mostly mean those.
 */
export function entityProminence(pack: GeodataPack, { kind, id }: Entity): number {
  const log = (n: number) => Math.log10(n + 10);
  switch (kind) {
    case NameKind.locality: {
      const code = pack.localities.featureCode(id);
      const bonus = code === 'PPLC' ? 0.5 : code === 'PPLA' ? 0.3 : code === 'PPLX' ? -0.5 : 0;
      return log(pack.localities.population[id]!) + bonus;
    }
    case NameKind.zip:
    case NameKind.postalArea:
      return 3;
    case NameKind.county:
      return log(pack.population.counties[id] ?? 0) - 1;
    case NameKind.state:
      return log(pack.population.states[id] ?? 0) + 0.3;
    case NameKind.admin1:
      return log(pack.population.admin1[id] ?? 0) - 0.3;
    default:
      return log(pack.population.countries[id] ?? 0) + 0.5;
  }
}

/** ISO alpha-2 country code of an entity ('' when unknown); cheap enough to filter thousands of candidates. */
export function entityCountryCode(pack: GeodataPack, { kind, id }: Entity): string {
  switch (kind) {
    case NameKind.locality:
      return pack.localities.countryCode(id);
    case NameKind.zip:
      return usCountry(pack.zips.columns.stateCode.get(id) ?? '');
    case NameKind.county:
      return usCountry(pack.counties[id]?.stateCode ?? '');
    case NameKind.state:
      return usCountry(pack.states[id]?.code ?? '');
    case NameKind.admin1:
      return pack.admin1[id]?.countryCode ?? '';
    case NameKind.postalArea:
      return entityContext(pack, { kind, id }).countryCode ?? '';
    default:
      return pack.countries[id]?.code ?? '';
  }
}

/**
 * Normalized words that may qualify an entity's name in a query (`paris, tx`, `paris france`): its state
 * code and name, county, and country code, alpha-3 and name.
 */
export function entityQualifiers(pack: GeodataPack, e: Entity): string[] {
  if (e.kind !== NameKind.locality) {
    // Areas and postal codes are a few hundred of a query's candidates, each asked again by every query
    // that reaches it: their words are kept (at most one list per such entity of the pack).
    let kept = areaQualifiers.get(pack);
    if (!kept) {
      kept = new Map();
      areaQualifiers.set(pack, kept);
    }
    const key = e.kind * 2 ** 25 + e.id;
    let words = kept.get(key);
    if (!words) {
      words = sharedWords(pack, qualifiersOf(pack, e));
      kept.set(key, words);
    }
    return words;
  }
  // Localities are most candidates (thousands for `san`), and their words depend only on their areas.
  return perLocalityArea(pack, 'qualifiers', e.id, (id) => qualifiersOf(pack, { kind: e.kind, id }));
}

const areaQualifiers = new WeakMap<GeodataPack, Map<number, string[]>>();

// The ZIP codes of one county have the same words: one list for all of them, so that a qualifier check
// memoized per list (`accepts`) is made once per county, not once per code (`92-27 21` reads as ZIP `92…`
// qualified by `27` and `21`, and checked ~500 ZIP codes one by one).
const wordLists = new WeakMap<GeodataPack, Map<string, string[]>>();

function sharedWords(pack: GeodataPack, words: string[]): string[] {
  let lists = wordLists.get(pack);
  if (!lists) {
    lists = new Map();
    wordLists.set(pack, lists);
  }
  const key = words.join('\u0000');
  const kept = lists.get(key);
  if (kept) return kept;
  lists.set(key, words);
  return words;
}

function qualifiersOf(pack: GeodataPack, e: Entity): string[] {
  const l = pack.localities;
  const c =
    e.kind === NameKind.locality
      ? {
          stateCode: l.stateCode(e.id),
          state: l.stateName(e.id),
          county: l.countyName(e.id),
          countryCode: l.countryCode(e.id),
        }
      : entityContext(pack, e);
  const country = c.countryCode ? pack.country(c.countryCode) : undefined;
  return [c.stateCode, c.state, c.county, c.countryCode, country?.code3, country?.name]
    .filter((s): s is string => !!s)
    .map(normalizedArea);
}

// Area names repeat across thousands of candidates; normalizing each once keeps qualifier checks cheap.
const normalizedAreas = new Map<string, string>();
function normalizedArea(name: string): string {
  let key = normalizedAreas.get(name);
  if (key === undefined) {
    key = normalizeName(name);
    if (normalizedAreas.size < 200_000) normalizedAreas.set(name, key);
  }
  return key;
}

/** An entity as an Address, with the context that its layer carries. */
export function entityAddress(pack: GeodataPack, e: Entity): GeocodeAddress {
  return makeAddress(entityPoint(pack, e), entityLayer(pack, e), entityLabel(pack, e), entityContext(pack, e));
}

function entityLabel(pack: GeodataPack, { kind, id }: Entity): string {
  switch (kind) {
    case NameKind.locality:
      return pack.localities.name(id);
    case NameKind.zip:
      return pack.zips.columns.code.get(id) ?? '';
    default: {
      const r = areaRecord(pack, kind, id);
      return r && 'code' in r && kind === NameKind.postalArea ? r.code : r && 'name' in r ? r.name : '';
    }
  }
}
