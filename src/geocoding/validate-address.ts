import { normalizeName } from '../geodata/normalize-name.js';
import { houseNumberKey, houseNumberValue } from '../geodata/osm/addresses/house-numbers.js';
import { streetKey, uspsStreet } from '../geodata/osm/addresses/street-names.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import { addressResult, formatLine, interpolatedResult, streetResult } from './fine-address.js';
import { resolveStreets } from './fine-forward.js';
import { addressRegions } from './fine-regions.js';
import { interpolate } from './interpolate.js';

/** The address to check, as the caller wrote it (empty parts absent). */
export interface AddressToValidate {
  number?: string;
  street?: string;
  unit?: string;
  city?: string;
  stateCode?: string;
  postalCode?: string;
  countryCode?: string;
}

/** The SDKs' four statuses (radar-sdk-js `RadarVerificationStatus`, iOS `addressVerificationStatusForString`). */
export type VerificationStatus = 'verified' | 'partially verified' | 'ambiguous' | 'unverified';

/**
 * One part of the input that the matched record does not have as given: `given` absent when the part
 * was not given but an address needs it (a house number), `matched` absent when the record has none.
 */
export interface AddressDifference {
  field: keyof AddressToValidate;
  given?: string;
  matched?: string;
}

export interface AddressValidation {
  /** The matched record (the input itself, without coordinates, when unverified). */
  address: GeocodeAddress | InputAddress;
  status: VerificationStatus;
  differences: AddressDifference[];
  /** Why nothing matched (unverified only). */
  reason?: string;
}

/** The input echoed back in the Address field names, for an unverified answer. */
export type InputAddress = AddressToValidate & { addressLabel: string; formattedAddress: string };

interface Candidate {
  address: GeocodeAddress;
  differences: AddressDifference[];
}

/**
 * Checks an address against the imported OSM address layers. The number and street find the records
 * (the street as typed, else as `resolveStreets` reads it: an unfinished type or one typo); each is
 * compared with the given unit, city, state, ZIP (first 5 digits) and country. The record with the
 * fewest differences wins: none → `verified`, some → `partially verified`, two different records
 * tied → `ambiguous`. A number the street lacks is placed between its known neighbours (or, beyond
 * them, the street itself is the match) and reported as a `number` difference, as is a missing number
 * (a street alone is no address). A street no region has
 * is `unverified`, as is any address outside the imported regions: validation answers, it never fails.
 * Parts not given are not held against a record.
 */
export function validateAddress(pack: GeodataPack | null, input: AddressToValidate): AddressValidation {
  if (!pack || addressRegions(pack).length === 0) {
    return unverified(input, 'no OSM region with addresses is imported (npm run cli -- import osm <file>)');
  }
  const street = input.street!;
  const typedKey = streetKey(street);
  const resolved = resolveStreets(pack, street);
  const streetKeys = [...new Set([typedKey, resolved.key])];
  let candidates: Candidate[] = [];
  if (input.number) {
    for (const key of streetKeys) candidates.push(...exactRecords(pack, input, input.number, key));
  }
  if (candidates.length === 0) candidates = streetCandidates(pack, input, resolved.hits);
  if (candidates.length === 0) {
    return unverified(input, `no imported region has a street ${uspsStreet(street)}`);
  }
  const fewest = Math.min(...candidates.map((c) => c.differences.length));
  const best = candidates.filter((c) => c.differences.length === fewest);
  // A building and its entrance often carry the same address: records are told apart by what they read.
  const distinct = new Map(best.map((c) => [c.address.formattedAddress, c]));
  const [first] = distinct.values();
  const status: VerificationStatus =
    distinct.size > 1 ? 'ambiguous' : first!.differences.length === 0 ? 'verified' : 'partially verified';
  return { address: first!.address, status, differences: first!.differences };
}

/** The records `<number> <street key>` of every region, each with its differences from the input. */
function exactRecords(pack: GeodataPack, input: AddressToValidate, number: string, key: string): Candidate[] {
  const out: Candidate[] = [];
  const wanted = `${houseNumberKey(number)} ${key}`;
  const unitKey = input.unit ? normalizeUnit(input.unit) : undefined;
  for (const { layer } of addressRegions(pack)) {
    const [from, to] = layer.addressRange(wanted);
    const records: number[] = [];
    for (let i = from; i < to; i++) if (layer.addressKeys[i] === wanted) records.push(i);
    if (records.length === 0) continue;
    // Without a unit the building is meant: a record without one (else any, its unit left off). With a
    // unit, the record of that unit, else the building with a `unit` difference.
    const withUnit = unitKey ? records.find((i) => normalizeUnit(layer.address(i).unit) === unitKey) : undefined;
    const picked = withUnit !== undefined ? [withUnit] : records;
    for (const i of picked) {
      const address = addressResult(pack, layer, i);
      if (withUnit === undefined && address.unit) dropUnit(address);
      const differences = contextDifferences(input, address);
      if (key !== streetKey(input.street!)) differences.unshift(diff('street', input.street!, address.street));
      if (unitKey && withUnit === undefined) differences.push(diff('unit', input.unit!));
      out.push({ address: { ...address, confidence: 'exact' }, differences });
    }
  }
  return out;
}

/**
 * No record of that number (or no number given): on each street of the name, the number placed between
 * its known neighbours, else the street itself; the number is a difference either way.
 */
function streetCandidates(
  pack: GeodataPack,
  input: AddressToValidate,
  hits: ReturnType<typeof resolveStreets>['hits'],
): Candidate[] {
  const out: Candidate[] = [];
  const value = input.number ? houseNumberValue(input.number) : undefined;
  for (const { layer, street } of hits) {
    const at = value !== undefined ? interpolate(layer, street, value) : null;
    const address = at
      ? interpolatedResult(
          pack,
          layer,
          street,
          input.number!,
          at.point,
          layer.address(at.neighbour).postcode || undefined,
        )
      : streetResult(pack, layer, street);
    // A street's label point may lie in a neighbouring ZIP: only an interpolated point's ZIP is compared.
    const differences = contextDifferences(at ? input : { ...input, postalCode: undefined }, address);
    if (streetKey(input.street!) !== streetKey(address.street ?? '')) {
      differences.unshift(diff('street', input.street!, address.street));
    }
    // Without a number only the street is known: at best partially verified.
    differences.unshift(input.number ? diff('number', input.number) : { field: 'number' });
    if (input.unit) differences.push(diff('unit', input.unit));
    out.push({ address: { ...address, confidence: at ? 'interpolated' : 'fallback' }, differences });
  }
  return out;
}

/** Where the record's city, state, ZIP or country is not the one given. */
function contextDifferences(input: AddressToValidate, a: GeocodeAddress): AddressDifference[] {
  const out: AddressDifference[] = [];
  if (input.city && !sameCity(input.city, a)) out.push(diff('city', input.city, a.city));
  if (input.stateCode) {
    const s = normalizeName(input.stateCode);
    if (s !== normalizeName(a.stateCode ?? '') && s !== normalizeName(a.state ?? '')) {
      out.push(diff('stateCode', input.stateCode, a.stateCode));
    }
  }
  if (input.postalCode && input.postalCode.slice(0, 5) !== a.postalCode?.slice(0, 5)) {
    out.push(diff('postalCode', input.postalCode, a.postalCode));
  }
  if (input.countryCode && input.countryCode.toUpperCase() !== a.countryCode) {
    out.push(diff('countryCode', input.countryCode, a.countryCode));
  }
  return out;
}

/**
 * A mailing city is often a neighbourhood, a borough or the county (`Queens Village`, `Queens`,
 * `Jamaica`) while the record's city is the nearest GeoNames locality: any of them counts.
 */
function sameCity(typed: string, a: GeocodeAddress): boolean {
  const t = normalizeName(typed);
  return [a.city, a.neighborhood, a.borough, a.county].some((n) => {
    const k = normalizeName(n ?? '');
    return k !== '' && (k === t || k.startsWith(`${t} `) || t.startsWith(`${k} `));
  });
}

function diff(field: keyof AddressToValidate, given: string, matched?: string): AddressDifference {
  return matched ? { field, given, matched } : { field, given };
}

// `Apt 4B`, `#4B`, `Unit 4b` and `4B` are the same unit.
function normalizeUnit(unit: string): string {
  return normalizeName(unit)
    .replace(/^(apt|apartment|unit|ste|suite|#|no|number)\s+/, '')
    .replace(/\s+/g, '');
}

function dropUnit(a: GeocodeAddress): void {
  const line = `${a.number} ${a.street}`;
  a.formattedAddress = formatLine(line, a);
  a.addressLabel = line;
  delete a.unit;
}

function unverified(input: AddressToValidate, reason: string): AddressValidation {
  const line = [input.number, input.street].filter(Boolean).join(' ');
  const label = input.unit ? `${line} ${input.unit}` : line;
  const region = [input.stateCode, input.postalCode].filter(Boolean).join(' ');
  const head = [label, input.city, region].filter(Boolean).join(', ');
  const formattedAddress = [head, input.countryCode].filter(Boolean).join(' ');
  return {
    address: { ...input, addressLabel: label, formattedAddress },
    status: 'unverified',
    differences: [],
    reason,
  };
}
