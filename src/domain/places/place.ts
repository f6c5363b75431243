import type { Position } from '../../geo/types.js';
import type { Metadata } from '../metadata.js';

/** A place's chain as results show it: the NSI brand, plus the project's own id and metadata for it. */
export interface PlaceChain {
  name: string;
  slug: string;
  /** From the project's `chainMappings`. */
  externalId?: string;
  /** From the project's `chainMetadata`. */
  metadata?: Metadata;
}

/** A place from an imported OpenStreetMap region (spec: Place). */
export interface Place {
  /** Stable across re-imports (`osm-n123`, `osm-w456`, `osm-r789`). */
  id: string;
  name: string;
  categories: string[];
  chain?: PlaceChain;
  location: Position;
}

/** The wire shape of a place (search results, `user.place`, `context.place`, place events). */
export function placeSnapshot(p: Place): Record<string, unknown> {
  return {
    _id: p.id,
    name: p.name,
    categories: p.categories,
    ...(p.chain ? { chain: p.chain } : {}),
    location: { type: 'Point', coordinates: p.location },
  };
}
