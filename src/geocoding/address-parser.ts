import { createRequire } from 'node:module';
import { normalizeName } from '../geodata/normalize-name.js';
import { canonicalWord, isStreetAffix, oneEditApart, streetKey } from '../geodata/osm/addresses/street-names.js';

/** The parts of a free-text address, as typed (empty parts absent). */
export interface ParsedAddress {
  number?: string;
  street?: string;
  unit?: string;
  locality?: string;
  region?: string;
  postcode?: string;
  country?: string;
  /** `A & B`, `A and B`, `A at B`: the two streets of an intersection. */
  intersection?: [string, string];
}

interface PeliasSolution {
  pair: { classification: { label: string }; span: { body: string } }[];
}
interface PeliasTokenizer {
  solution: PeliasSolution[];
}
interface PeliasParser {
  classify(t: PeliasTokenizer): void;
  solve(t: PeliasTokenizer): void;
}

const require = createRequire(import.meta.url);
let parser: PeliasParser | undefined;
let Tokenizer: (new (text: string) => PeliasTokenizer) | undefined;

/**
 * Loads pelias-parser's dictionaries (libpostal word lists: about 2 s). Called the first time a region
 * with addresses is opened, so the first forward request does not pay for it.
 */
export function loadAddressParser(): void {
  if (parser) return;
  const AddressParser = require('pelias-parser/parser/AddressParser') as new () => PeliasParser;
  Tokenizer = require('pelias-parser/tokenization/Tokenizer') as new (text: string) => PeliasTokenizer;
  parser = new AddressParser();
}

// Parsing costs a few ms; geocoding traffic repeats queries (retries, the same form submitted twice), so
// recent answers are kept. Cleared whole when full: cheaper than LRU bookkeeping on every hit.
const CACHE_SIZE = 20_000;
const cache = new Map<string, ParsedAddress>();

const INTERSECTION = /^(.+?)\s+(?:&|and|at|@|\/)\s+(.+)$/i;

/**
 * Parses a free-text address with pelias-parser (house number, street, unit, locality, region, postcode,
 * country). Intersections (`Springfield Blvd & 89th Ave, Queens`) are split before parsing: the parser
 * reads them as one street. Queens-style numbers (`89-12`) stay whole.
 */
export function parseAddress(text: string, knownStreet?: (key: string) => boolean): ParsedAddress {
  const cached = cache.get(text);
  if (cached) return cached;
  let parsed = (knownStreet && quickParse(text, knownStreet)) || parseUncached(text);
  // pelias-parser answers nothing for a line whose street type it cannot read (`223rd Ssreet`): the
  // canonical form is then read as written, and the typo left to the street lookup.
  if (!parsed.street && !parsed.intersection) parsed = quickParse(text, () => true) ?? parsed;
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(text, parsed);
  return parsed;
}

const NUMBER_STREET = /^\s*(\d+[a-z]?(?:-\d+[a-z]?)?)\s+([^,]*[a-z][^,]*?)\s*$/i;
const REGION_ZIP = /^\s*([a-z]{2})?\s*(\d{5}(?:-\d{4})?)?\s*$/i;
const LOCALITY = /^\s*([a-z][a-z .'-]*?)\s*$/i;
const COUNTRY = /^\s*(us|usa|united states)\s*$/i;

/**
 * The canonical form a form or a CRM sends, `number street[, locality][, ST 12345][, US]`, read without
 * pelias-parser (which costs milliseconds a query) when the street is one the regions know (`knownStreet`
 * of its key): then there is nothing to guess. Anything else, or a street no region has, goes to the parser.
 */
function quickParse(text: string, knownStreet: (key: string) => boolean): ParsedAddress | null {
  const parts = text.split(',');
  if (parts.length > 4) return null;
  if (parts.length > 1 && COUNTRY.test(parts.at(-1)!)) parts.pop();
  const head = NUMBER_STREET.exec(parts[0]!);
  if (!head) return null;
  const { street, unit } = splitUnit(head[2]!);
  if (!knownStreet(streetKey(street))) return null;
  const out: ParsedAddress = { number: head[1]!, street };
  if (unit) out.unit = unit;
  const rest = parts.slice(1);
  const last = rest.length > 0 ? REGION_ZIP.exec(rest.at(-1)!) : null;
  if (last && (last[1] || last[2])) {
    if (last[1]) out.region = last[1];
    if (last[2]) out.postcode = last[2];
    rest.pop();
  }
  if (rest.length > 1) return null;
  if (rest.length === 1) {
    const loc = LOCALITY.exec(rest[0]!);
    if (!loc) return null;
    out.locality = loc[1]!;
  }
  return out;
}

// USPS Publication 28, appendix C2: secondary unit designators people write after the street.
const UNIT_WORDS = [
  'apartment',
  'apt',
  'building',
  'bldg',
  'floor',
  'fl',
  'lot',
  'room',
  'rm',
  'space',
  'spc',
  'suite',
  'ste',
  'unit',
];
const UNIT_TAIL = /^(.*?[a-z].*?)\s+(?:#\s*([a-z0-9-]+)|([a-z]+)\.?\s+#?([a-z0-9-]+))$/i;

/**
 * `Springfield Blvd Apt 2` → street `Springfield Blvd`, unit `Apt 2`. The unit word may carry one typo
 * (`Aptt 2`, `Suiet 4`) when it has three letters or more; its identifier must hold a digit or be one letter.
 */
/**
 * The canonical line `number street[, locality][, ST 12345][, US]` read as written, without pelias-parser
 * (whose dictionaries take seconds to load: a pack without imported streets has no reason to pay that).
 */
export function parseAddressLine(text: string): ParsedAddress | null {
  return quickParse(text, () => true);
}

function splitUnit(line: string): { street: string; unit?: string } {
  const m = UNIT_TAIL.exec(line.trim());
  if (!m) return { street: line };
  if (m[2]) return { street: m[1]!, unit: `#${m[2]}` };
  const word = m[3]!.toLowerCase();
  const id = m[4]!;
  if (!/\d/.test(id) && id.length > 1) return { street: line };
  const isUnit = UNIT_WORDS.some((u) => u === word || (word.length >= 3 && u.length >= 3 && oneEditApart(word, u)));
  return isUnit ? { street: m[1]!, unit: `${m[3]} ${id}` } : { street: line };
}

function parseUncached(text: string): ParsedAddress {
  const [head = '', ...rest] = text.split(',');
  const crossing = INTERSECTION.exec(head.trim());
  if (crossing && !/^\s*\d/.test(head)) {
    // The second street may carry the locality when there is no comma: parse it as an address line.
    const second = solve(`1 ${[crossing[2], ...rest].join(',')}`);
    const out: ParsedAddress = { ...second, intersection: [crossing[1]!.trim(), second.street ?? crossing[2]!.trim()] };
    delete out.number;
    delete out.street;
    return out;
  }
  return widenStreet(widenLocality(solve(text), text), text);
}

/**
 * pelias-parser sometimes leaves off the street type of a street it does not know (`115-66 Newburg
 * Street` → `Newburg`): the street type and direction words that follow the street in the text are put back.
 */
function widenStreet(parsed: ParsedAddress, text: string): ParsedAddress {
  const street = parsed.street;
  if (!street) return parsed;
  const at = text.indexOf(street);
  if (at < 0) return parsed;
  const after = text
    .slice(at + street.length)
    .split(',')[0]!
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const extra: string[] = [];
  for (const w of after) {
    if (!isStreetAffix(canonicalWord(normalizeName(w)))) break;
    extra.push(w);
  }
  return extra.length > 0 ? { ...parsed, street: [street, ...extra].join(' ') } : parsed;
}

/**
 * pelias-parser sometimes keeps only the last word of a locality it does not know (`Queens Village` →
 * `Village`). When commas delimit the parts, the whole comma part that holds the locality is taken,
 * less the region and postcode written in it.
 */
function widenLocality(parsed: ParsedAddress, text: string): ParsedAddress {
  const loc = parsed.locality;
  if (!loc || !text.includes(',')) return parsed;
  const part = text.split(',').find((p) => p.includes(loc));
  if (!part) return parsed;
  let whole = part;
  for (const drop of [parsed.region, parsed.postcode, parsed.street, parsed.number]) {
    if (drop) whole = whole.replace(drop, ' ');
  }
  whole = whole.replace(/\s+/g, ' ').trim();
  return whole.length > loc.length && whole.includes(loc) ? { ...parsed, locality: whole } : parsed;
}

const LABELS: Record<string, keyof Omit<ParsedAddress, 'intersection'>> = {
  housenumber: 'number',
  street: 'street',
  unit: 'unit',
  locality: 'locality',
  region: 'region',
  postcode: 'postcode',
  country: 'country',
};

function solve(text: string): ParsedAddress {
  loadAddressParser();
  const t = new Tokenizer!(text);
  parser!.classify(t);
  parser!.solve(t);
  const out: ParsedAddress = {};
  for (const p of t.solution[0]?.pair ?? []) {
    const key = LABELS[p.classification.label];
    if (key && !out[key]) out[key] = p.span.body.trim();
  }
  return out;
}
