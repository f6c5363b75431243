import type { PlaceSettings } from '../settings/place-settings.js';
import type { PlaceChain } from './place.js';

/** A chain with the project's `externalId` (chainMappings) and `metadata` (chainMetadata) for its slug. */
export function withProjectChainFields(chain: { name: string; slug: string }, settings: PlaceSettings): PlaceChain {
  const out: PlaceChain = { name: chain.name, slug: chain.slug };
  const externalId = settings.chainMappings[chain.slug];
  if (externalId !== undefined) out.externalId = externalId;
  const metadata = settings.chainMetadata[chain.slug];
  if (metadata !== undefined) out.metadata = metadata;
  return out;
}

/**
 * Whether `placeFilters` let a place generate entry and exit events: with no filter, every place does;
 * else a place whose chain slug is in `chain` or one of whose categories is in `category`.
 */
export function passesPlaceFilters(
  place: { chain?: { slug: string }; categories: string[] },
  filters: PlaceSettings['placeFilters'],
): boolean {
  if (filters.chain.length === 0 && filters.category.length === 0) return true;
  if (place.chain && filters.chain.includes(place.chain.slug)) return true;
  return place.categories.some((c) => filters.category.includes(c));
}
