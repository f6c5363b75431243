import type { openAddressLayer } from '../../src/geodata/osm/addresses/address-layer.js';

export type AddressLayer = NonNullable<Awaited<ReturnType<typeof openAddressLayer>>>;

/** The geocoding bench's queries, as its scenario sends them and `geocoding-ab.bench.ts` replays them. */
export interface GeocodingQueries {
  /** What a user types into an address form, and `near` as `lat,lon` text (4 decimals). */
  autocomplete: Array<{ query: string; near: string }>;
  /** Full addresses as a form submits them, every one different (the parse cache does not help). */
  forward: string[];
  /** Points up to ~30 m from an address, as `lat,lon` text (6 decimals). */
  reverse: string[];
}

/**
 * `count` addresses of `layer` picked with `random`, and the queries made from them. Autocomplete: 40-100%
 * of "number street" (one in ten with a transposition in the street), one in five a bare street name
 * prefix, near a point a km or so away. The calls to `random` come in a fixed order, so one seed gives
 * the same queries in every process.
 */
export function geocodingQueries(layer: AddressLayer, random: () => number, count = 10_000): GeocodingQueries {
  const picks = Array.from({ length: count }, () => Math.floor(random() * layer.count));
  const near = (i: number) =>
    `${(layer.addressLat(i) + (random() - 0.5) * 0.03).toFixed(4)},${(layer.addressLon(i) + (random() - 0.5) * 0.03).toFixed(4)}`;
  const autocomplete = picks.map((i, k) => {
    const a = layer.address(i);
    const text = k % 5 === 0 ? a.street : `${a.number} ${a.street}`;
    let typed = text.slice(0, Math.max(3, Math.ceil(text.length * (0.4 + 0.6 * random()))));
    if (random() < 0.1 && typed.length > 8) {
      const j = typed.length - 3;
      typed = typed.slice(0, j) + typed[j + 1] + typed[j] + typed.slice(j + 2);
    }
    return { query: typed, near: near(i) };
  });
  const forward = picks.map((i) => {
    const a = layer.address(i);
    return `${a.number} ${a.street}, Queens, NY ${a.postcode}`;
  });
  const reverse = picks.map((i) => {
    const lat = layer.addressLat(i) + (random() - 0.5) * 0.0005;
    const lon = layer.addressLon(i) + (random() - 0.5) * 0.0005;
    return `${lat.toFixed(6)},${lon.toFixed(6)}`;
  });
  return { autocomplete, forward, reverse };
}
