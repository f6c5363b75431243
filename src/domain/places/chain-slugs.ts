import { slugify } from '../../geodata/osm/places/chains.js';
import type { PlaceLayer } from '../../geodata/osm/places/place-layer.js';

/**
 * The slugs a caller may use for a chain: its catalogue slug (`sonic-q7561808` when another brand of the
 * same name took `sonic`), that slug without the `-<qid>` that tells brands apart (`sonic`), and its name
 * with `&` dropped (`AT&T` → `att`, beside the catalogue's `at-and-t`).
 */
export function chainSlugAliases(chain: { name: string; slug: string }): string[] {
  const plain = chain.slug.replace(/-q\d+$/, '');
  const compact = slugify(chain.name.replace(/&/g, ''));
  return [...new Set([chain.slug, plain, compact].filter(Boolean))];
}

const resolvers = new WeakMap<PlaceLayer, Map<string, string>>();

/**
 * Each slug a caller may use in a region → the catalogue slug it means there. A plain name shared by two
 * brands goes to the one with more places in the region (then the catalogue's own choice, the slug that is
 * already plain); a qualified slug always means its own brand. Built once per opened layer.
 */
function resolverOf(layer: PlaceLayer): Map<string, string> {
  let map = resolvers.get(layer);
  if (map) return map;
  const counts = new Map<string, { name: string; n: number }>();
  for (let i = 0; i < layer.count; i++) {
    const chain = layer.record(i).chain;
    if (!chain) continue;
    const seen = counts.get(chain.slug);
    counts.set(chain.slug, { name: chain.name, n: (seen?.n ?? 0) + 1 });
  }
  const best = new Map<string, { slug: string; n: number }>();
  for (const [slug, { name, n }] of counts) {
    for (const alias of chainSlugAliases({ name, slug })) {
      const held = best.get(alias);
      if (!held || n > held.n || (n === held.n && slug === alias)) best.set(alias, { slug, n });
    }
  }
  map = new Map([...best].map(([alias, { slug }]) => [alias, slug]));
  // A qualified slug always means its own brand.
  for (const slug of counts.keys()) if (/-q\d+$/.test(slug)) map.set(slug, slug);
  resolvers.set(layer, map);
  return map;
}

/** The catalogue slugs a search's `chains` mean in one region (see {@link resolverOf}). */
export function resolveChainSlugs(layer: PlaceLayer, requested: Iterable<string>): Set<string> {
  const map = resolverOf(layer);
  const out = new Set<string>();
  for (const s of requested) out.add(map.get(s) ?? s);
  return out;
}
