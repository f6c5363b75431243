import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { featuresContaining } from '@rapideditor/country-coder';
import { distanceMeters } from '../../../geo/distance-meters.js';
import { isLatinName } from '../../normalize-name.js';
import { requireInstalledPackage } from '../../package-dir.js';
import type { OsmTags } from '../osm-file.js';

/** A chain (brand) from name-suggestion-index, identified by its Wikidata QID (or NSI id when it has none). */
export interface Chain {
  /** `brand:wikidata` when NSI gives one, else the NSI item id. */
  key: string;
  name: string;
  slug: string;
}

type LocationItem = string | [number, number] | [number, number, number];
interface NsiItem {
  id: string;
  displayName: string;
  locationSet?: { include?: LocationItem[]; exclude?: LocationItem[] };
  matchNames?: string[];
  matchTags?: string[];
  tags: Record<string, string>;
}
interface NsiFile {
  nsi: Record<string, { items: NsiItem[] }>;
}

interface Candidate {
  chain: Chain;
  item: NsiItem;
}

/**
 * The brand catalogue of name-suggestion-index (`dist/json/nsi.min.json`, the brands tree only), indexed
 * for matching OSM features: by `brand:wikidata`, and by simplified name per OSM tag path
 * (`amenity/cafe`). Slugs are `slugify(displayName)`; two different brands with the same slug are told
 * apart deterministically (the one with most NSI items keeps the plain slug, then the one offered worldwide
 * or in the US, then the lowest QID; the others get `-<qid>`).
 */
export class ChainCatalogue {
  private readonly byQid = new Map<string, Candidate[]>();
  /** Brands per tag path (their own and their `matchTags`); the name index of a path is built on first use. */
  private readonly byPath = new Map<string, Candidate[]>();
  private readonly namesByPath = new Map<string, Map<string, Candidate[]>>();
  /** NSI's matchGroups: tag paths whose brands also match each other (fast_food ↔ restaurant). */
  private readonly groupsOf = new Map<string, string[]>();

  constructor(file: NsiFile, matchGroups: Record<string, string[]>) {
    for (const paths of Object.values(matchGroups)) {
      for (const p of paths) this.groupsOf.set(p, [...(this.groupsOf.get(p) ?? []), ...paths]);
    }
    const items: Array<{ path: string; item: NsiItem; key: string }> = [];
    for (const [treePath, entry] of Object.entries(file.nsi)) {
      if (!treePath.startsWith('brands/')) continue;
      const path = treePath.slice('brands/'.length);
      for (const item of entry.items) {
        items.push({ path, item, key: item.tags['brand:wikidata'] ?? item.id });
      }
    }
    const chains = assignSlugs(items);
    for (const { path, item, key } of items) {
      const candidate = { chain: chains.get(key)!, item };
      push(this.byQid, key, candidate);
      push(this.byPath, path, candidate);
      for (const p of item.matchTags ?? []) push(this.byPath, p, candidate);
    }
  }

  /**
   * The chain of a feature with primary tag path `tag` (`amenity/cafe`) at `[lon, lat]`: by
   * `brand:wikidata` first, then by `brand` or `name` among the brands of that tag (and its NSI match
   * group), within each brand's NSI location set. Undefined when none matches.
   */
  match(tags: OsmTags, tag: string, lon: number, lat: number): Chain | undefined {
    const where = new LocationTest(lon, lat);
    const qid = tags['brand:wikidata'];
    if (qid) {
      const hit = this.byQid.get(qid.split(';')[0]!.trim());
      if (hit?.[0]) return hit[0].chain;
    }
    const paths = [tag, ...(this.groupsOf.get(tag) ?? [])];
    for (const raw of [tags.brand, tags.name, tags['name:en']]) {
      if (!raw) continue;
      const n = simplify(raw);
      if (!n) continue;
      for (const p of paths) {
        for (const c of this.namesOf(p).get(n) ?? []) if (where.allows(c.item)) return c.chain;
      }
    }
    return undefined;
  }

  /** Simplified names (display name, name, brand, name:en, official_name, matchNames) of a path's brands. */
  private namesOf(path: string): Map<string, Candidate[]> {
    let index = this.namesByPath.get(path);
    if (index) return index;
    index = new Map();
    for (const candidate of this.byPath.get(path) ?? []) {
      const { item } = candidate;
      const names = new Set(
        [
          item.displayName,
          item.tags.name,
          item.tags.brand,
          item.tags['name:en'],
          item.tags.official_name,
          ...(item.matchNames ?? []),
        ]
          .filter((n): n is string => !!n)
          .map(simplify)
          .filter((n) => n !== ''),
      );
      for (const n of names) push(index, n, candidate);
    }
    this.namesByPath.set(path, index);
    return index;
  }
}

let loaded: Promise<ChainCatalogue> | undefined;

/** The catalogue of the installed name-suggestion-index, loaded once per process (about a second). */
export function loadChainCatalogue(): Promise<ChainCatalogue> {
  loaded ??= (async () => {
    const pkg = requireInstalledPackage('name-suggestion-index');
    const [nsi, groups] = await Promise.all([
      readFile(join(pkg.dir, 'dist', 'json', 'nsi.min.json'), 'utf8'),
      readFile(join(pkg.dir, 'dist', 'json', 'matchGroups.min.json'), 'utf8'),
    ]);
    return new ChainCatalogue(JSON.parse(nsi) as NsiFile, JSON.parse(groups).matchGroups ?? {});
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** The installed name-suggestion-index version, for manifests. */
export function chainCatalogueVersion(): string {
  return requireInstalledPackage('name-suggestion-index').version;
}

/** URL-safe lower-case slug: `7-Eleven` → `7-eleven`, `McDonald's` → `mcdonalds`, `Café Amazon` → `cafe-amazon`. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/&/g, ' and ')
    .replace(/['’‘`ʻ]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** NSI-style name key: letters and digits only, accents folded, `&` read as `and`. */
export function simplify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** One Chain per brand key, with slugs unique across the whole catalogue. */
function assignSlugs(items: Array<{ item: NsiItem; key: string }>): Map<string, Chain> {
  // A brand has several NSI items (per country, per category, "Walmart Photo Center"): name it by the
  // `brand` value most of its items carry, and rank it by the item offered most widely.
  const best = new Map<string, NsiItem>();
  const brandVotes = new Map<string, Map<string, { votes: number; rank: number }>>();
  const itemCount = new Map<string, number>();
  for (const { item, key } of items) {
    const seen = best.get(key);
    if (!seen || rank(item) < rank(seen)) best.set(key, item);
    const name = chainName(item);
    const votes = brandVotes.get(key) ?? new Map<string, { votes: number; rank: number }>();
    const v = votes.get(name) ?? { votes: 0, rank: 9 };
    votes.set(name, { votes: v.votes + 1, rank: Math.min(v.rank, rank(item)) });
    brandVotes.set(key, votes);
    itemCount.set(key, (itemCount.get(key) ?? 0) + 1);
  }
  const bySlug = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const [key, item] of best) {
    // Latin-script names first (slugs are ASCII), then the name of the most widely offered item, then
    // the commonest, then the shortest.
    const votes = [...brandVotes.get(key)!].sort(
      (a, b) =>
        Number(isLatinName(b[0])) - Number(isLatinName(a[0])) ||
        a[1].rank - b[1].rank ||
        b[1].votes - a[1].votes ||
        a[0].length - b[0].length,
    );
    const name = votes[0]![0];
    names.set(key, name);
    // Names in other scripts slugify to nothing: fall back to an English name, then the NSI id.
    const slug = slugify(name) || slugify(item.tags['name:en'] ?? item.tags['brand:en'] ?? '') || item.id;
    push(bySlug, slug, key);
  }
  const out = new Map<string, Chain>();
  for (const [slug, keys] of bySlug) {
    // The brand NSI lists most (in most countries and categories) is the one callers mean by the name.
    keys.sort(
      (a, b) => itemCount.get(b)! - itemCount.get(a)! || rank(best.get(a)!) - rank(best.get(b)!) || compareKeys(a, b),
    );
    keys.forEach((key, i) => {
      out.set(key, { key, name: names.get(key)!, slug: i === 0 ? slug : `${slug}-${key.toLowerCase()}` });
    });
  }
  return out;
}

/** The brand's own name: its `brand` tag, else the display name without a qualifier such as "(USA)". */
function chainName(item: NsiItem): string {
  return (item.tags.brand ?? item.displayName).replace(/\s*\([^)]*\)\s*$/, '').trim() || item.displayName;
}

/** Worldwide brands first, then US ones, then the rest: the plain slug goes to the brand most callers mean. */
function rank(item: NsiItem): number {
  const include = item.locationSet?.include ?? [];
  if (include.includes('001')) return 0;
  if (include.some((x) => typeof x === 'string' && x.toLowerCase().startsWith('us'))) return 1;
  return 2;
}

/** Q-ids by number (Q37158 before Q259340), other keys after them by text. */
function compareKeys(a: string, b: string): number {
  const qa = /^Q\d+$/.test(a) ? Number(a.slice(1)) : Number.POSITIVE_INFINITY;
  const qb = /^Q\d+$/.test(b) ? Number(b.slice(1)) : Number.POSITIVE_INFINITY;
  return qa !== qb ? qa - qb : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a point is in an NSI location set. Country-coder gives the codes of every region containing the
 * point (country, M49 groups such as `021` and `001`, some subdivisions such as `us-hi`); NSI's custom `.geojson` areas are
 * approximated by their country prefix (`us-ca.geojson` counts as the US), circles `[lon, lat, radiusKm]`
 * are tested by distance. Computed lazily: most features never reach a name match.
 */
class LocationTest {
  private codes: Set<string> | undefined;

  constructor(
    private readonly lon: number,
    private readonly lat: number,
  ) {}

  allows(item: NsiItem): boolean {
    const set = item.locationSet;
    const include = set?.include ?? ['001'];
    return include.some((x) => this.contains(x)) && !(set?.exclude ?? []).some((x) => this.contains(x));
  }

  private contains(x: LocationItem): boolean {
    if (Array.isArray(x)) {
      const radiusKm = x.length === 3 ? x[2] : 25;
      return distanceMeters([x[0], x[1]], [this.lon, this.lat]) <= radiusKm * 1000;
    }
    const code = x.toLowerCase();
    if (code === '001') return true;
    const codes = this.regionCodes();
    if (code.endsWith('.geojson')) return codes.has(code.split(/[-.]/)[0]!);
    return codes.has(code);
  }

  private regionCodes(): Set<string> {
    if (this.codes) return this.codes;
    this.codes = new Set();
    for (const f of featuresContaining([this.lon, this.lat])) {
      const p = f.properties as unknown as Record<string, unknown>;
      // `aliases` carry the ISO 3166-2 codes NSI uses for subdivisions (`US-HI` for Hawaii's brands).
      const codes = [p.id, p.iso1A2, p.iso1A3, p.m49, p.wikidata, ...(Array.isArray(p.aliases) ? p.aliases : [])];
      for (const c of codes) if (typeof c === 'string' && c) this.codes.add(c.toLowerCase());
    }
    return this.codes;
  }
}
