import { LRUCache } from 'lru-cache';
import { normalizeName } from '../../normalize-name.js';

// USPS Publication 28, appendix C1: common street suffixes, full word → standard abbreviation. Keys are
// normalized (lower case); the list covers the suffixes that occur in US OSM data in practice.
const SUFFIXES: Readonly<Record<string, string>> = {
  alley: 'aly',
  annex: 'anx',
  arcade: 'arc',
  avenue: 'ave',
  bayou: 'byu',
  beach: 'bch',
  bend: 'bnd',
  bluff: 'blf',
  bottom: 'btm',
  boulevard: 'blvd',
  branch: 'br',
  bridge: 'brg',
  brook: 'brk',
  bypass: 'byp',
  camp: 'cp',
  canyon: 'cyn',
  causeway: 'cswy',
  center: 'ctr',
  circle: 'cir',
  cliff: 'clf',
  club: 'clb',
  common: 'cmn',
  corner: 'cor',
  course: 'crse',
  court: 'ct',
  courts: 'cts',
  cove: 'cv',
  creek: 'crk',
  crescent: 'cres',
  crossing: 'xing',
  drive: 'dr',
  estate: 'est',
  estates: 'ests',
  expressway: 'expy',
  extension: 'ext',
  falls: 'fls',
  field: 'fld',
  fields: 'flds',
  freeway: 'fwy',
  garden: 'gdn',
  gardens: 'gdns',
  gateway: 'gtwy',
  glen: 'gln',
  green: 'grn',
  grove: 'grv',
  harbor: 'hbr',
  heights: 'hts',
  highway: 'hwy',
  hill: 'hl',
  hills: 'hls',
  hollow: 'holw',
  island: 'is',
  junction: 'jct',
  key: 'ky',
  lake: 'lk',
  landing: 'lndg',
  lane: 'ln',
  loop: 'loop',
  manor: 'mnr',
  meadow: 'mdw',
  meadows: 'mdws',
  mill: 'ml',
  motorway: 'mtwy',
  mount: 'mt',
  mountain: 'mtn',
  oval: 'oval',
  overpass: 'opas',
  park: 'park',
  parkway: 'pkwy',
  pass: 'pass',
  path: 'path',
  pike: 'pike',
  place: 'pl',
  plaza: 'plz',
  point: 'pt',
  port: 'prt',
  prairie: 'pr',
  ridge: 'rdg',
  river: 'riv',
  road: 'rd',
  route: 'rte',
  row: 'row',
  run: 'run',
  shore: 'shr',
  square: 'sq',
  station: 'sta',
  street: 'st',
  terrace: 'ter',
  trace: 'trce',
  trail: 'trl',
  tunnel: 'tunl',
  turnpike: 'tpke',
  valley: 'vly',
  view: 'vw',
  village: 'vlg',
  way: 'way',
  walk: 'walk',
};

// Common non-standard spellings people type, mapped to the standard abbreviation.
const VARIANTS: Readonly<Record<string, string>> = {
  av: 'ave',
  aven: 'ave',
  avn: 'ave',
  blv: 'blvd',
  boul: 'blvd',
  boulv: 'blvd',
  crt: 'ct',
  drv: 'dr',
  hiway: 'hwy',
  hway: 'hwy',
  parkwy: 'pkwy',
  pky: 'pkwy',
  str: 'st',
  strt: 'st',
  tpk: 'tpke',
  trnpk: 'tpke',
  expwy: 'expy',
  expressw: 'expy',
};

const DIRECTIONS: Readonly<Record<string, string>> = {
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
};

const ABBREVIATIONS = new Set([...Object.values(SUFFIXES), ...Object.values(DIRECTIONS)]);

/** Every word a street key can hold as a suffix or direction, full form → abbreviation. */
const CANONICAL: ReadonlyMap<string, string> = new Map([
  ...Object.entries(SUFFIXES),
  ...Object.entries(VARIANTS),
  ...Object.entries(DIRECTIONS),
]);

/**
 * The search key of a street name: normalized, with street types and directions in their USPS abbreviation
 * and ordinals as bare numbers, so `West 42nd Street`, `W 42 St` and `w. 42nd st` share the key `w 42 st`.
 */
export function streetKey(name: string): string {
  return normalizeName(name).split(' ').map(canonicalWord).join(' ');
}

/** One normalized word of a street name in its key form. */
export function canonicalWord(word: string): string {
  const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(word);
  if (ordinal) return ordinal[1]!;
  return CANONICAL.get(word) ?? word;
}

/**
 * The key forms the last, possibly unfinished, word of a typed street may stand for: itself, and the
 * abbreviation of every street type or direction it starts, in full or abbreviated (`boul` and `bl` →
 * `blvd`, `aven` → `ave`, `stre` → `st`),
 * so a prefix typed in full words still finds keys written in abbreviations.
 */
export function lastWordForms(word: string): readonly string[] {
  // Each is a pass over the ~130 known words; the last words typed repeat from one query to the next.
  let forms = formsKept.get(word);
  if (!forms) {
    forms = wordForms(word);
    formsKept.set(word, forms);
  }
  return forms;
}

// Street names and typed last words kept with their forms: a few thousand distinct strings a region.
const MAX_KEPT = 20_000;
const formsKept = new LRUCache<string, readonly string[]>({ max: MAX_KEPT });
const uspsKept = new LRUCache<string, string>({ max: MAX_KEPT });

function wordForms(word: string): readonly string[] {
  const out = new Set([word]);
  const ordinal = /^(\d+)(s|st|n|nd|r|rd|t|th)$/.exec(word);
  if (ordinal) out.add(ordinal[1]!);
  if (word.length >= 2 && !/^\d/.test(word)) {
    for (const [full, abbr] of CANONICAL) if (full.startsWith(word) || abbr.startsWith(word)) out.add(abbr);
  }
  return [...out];
}

/**
 * A street name as a US address line writes it: street types and directions abbreviated as USPS does
 * (`West 42nd Street` → `W 42nd St`), the rest as tagged. A type is only abbreviated after another word
 * (`Avenue A` keeps its first word, `Park Avenue` becomes `Park Ave`).
 */
export function uspsStreet(name: string): string {
  // A result's street line is made from its name each time: the names of a region repeat.
  let line = uspsKept.get(name);
  if (line === undefined) {
    line = uspsLine(name);
    uspsKept.set(name, line);
  }
  return line;
}

function uspsLine(name: string): string {
  const words = name.trim().split(/\s+/);
  return words
    .map((w, i) => {
      const k = normalizeName(w);
      const dir = DIRECTIONS[k];
      if (dir && words.length > 1) return dir.toUpperCase();
      const suffix = SUFFIXES[k];
      if (suffix && i > 0) return suffix[0]!.toUpperCase() + suffix.slice(1);
      return w;
    })
    .join(' ');
}

/**
 * The key forms of the street types and directions one edit away from a typed word that is none of them
 * (`ssreet`, `bouleard`, `rod` → `st`, `blvd`, `rd`; `nrth` → `n`), and the number of an ordinal whose suffix
 * has the typo (`223gd` → `223`). Words under three letters and bare numbers are left alone: `sy` or `223`
 * one edit away from a type would mostly be a name or another street.
 */
export function nearAffixes(word: string): readonly string[] {
  // `223gd`, `215t`, `207fth`: an ordinal whose suffix took the typo is its number.
  const ordinal = /^(\d+)[a-z]{1,4}$/.exec(word);
  if (ordinal) return [ordinal[1]!];
  if (word.length < 3 || /\d/.test(word) || CANONICAL.has(word) || ABBREVIATIONS.has(word)) return [];
  let near = nearKept.get(word);
  if (!near) {
    const out = new Set<string>();
    for (const [full, abbr] of CANONICAL) if (full.length >= 4 && oneEditApart(word, full)) out.add(abbr);
    for (const abbr of ABBREVIATIONS) if (abbr.length >= 4 && oneEditApart(word, abbr)) out.add(abbr);
    near = [...out];
    nearKept.set(word, near);
  }
  return near;
}

const nearKept = new LRUCache<string, readonly string[]>({ max: MAX_KEPT });

/** Whether `a` becomes `b` by one deletion, insertion, substitution or swap of neighbours. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Whether a key word is a street type or direction abbreviation (weak evidence when matching). */
export function isStreetAffix(word: string): boolean {
  return ABBREVIATIONS.has(word);
}
