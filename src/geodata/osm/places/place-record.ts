/** Address parts a place carries in its own `addr:*` tags (absent parts are left out). */
export interface PlaceAddress {
  number?: string;
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/** One place of a region: a named POI from a tagged node, a building/area way or a multipolygon. */
export interface PlaceRecord {
  /** Stable across re-imports: `osm-n<id>`, `osm-w<id>` or `osm-r<id>`. */
  id: string;
  name: string;
  /** Position of the node, or a point inside the footprint. */
  lon: number;
  lat: number;
  /** Category slugs, most specific first, with their parents (a coffee shop is also food-beverage). */
  categories: string[];
  chain?: { name: string; slug: string };
  address?: PlaceAddress;
}
