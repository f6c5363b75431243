import type { OsmRegion } from './osm/osm-region.js';
import type { GeodataPack } from './pack.js';

// Within a block or two: farther tagged addresses say little about the ZIP of the point itself.
const REACH_METERS = 250;
// Enough neighbours that one mistagged address does not decide, few enough to stay on the point's block.
const NEIGHBOURS = 7;
const FIVE_DIGITS = /^\d{5}/;

/**
 * Where imported OSM regions have tagged addresses, the postcode most of the nearest ones (up to
 * {@link NEIGHBOURS} within {@link REACH_METERS}) carry, the nearest breaking a tie; undefined elsewhere. Used
 * before the nearest Census ZCTA point when no ZCTA polygon covers a point: on Oʻahu it is right about
 * a little more often (bench/postal-guess-accuracy.ts). Undefined when no region has addresses. Asked
 * by context and track only (about 30 µs a point), not by geocoding, whose fine results carry their own.
 */
export function taggedPostcodeLookup(
  regions: readonly OsmRegion[],
): ((lon: number, lat: number) => string | undefined) | undefined {
  const layers = regions.flatMap((r) => (r.addresses ? [r.addresses] : []));
  if (layers.length === 0) return undefined;
  return (lon, lat) => {
    const votes = new Map<string, { n: number; nearest: number }>();
    for (const layer of layers) {
      // Rows come nearest first: the rank stands for the distance when breaking a tie.
      layer.nearestAddressRows(lon, lat, NEIGHBOURS, REACH_METERS).forEach((row, rank) => {
        const code = FIVE_DIGITS.exec(layer.postcodeAt(row))?.[0];
        if (!code) return;
        const v = votes.get(code);
        if (v) v.n++;
        else votes.set(code, { n: 1, nearest: rank });
      });
    }
    let best: string | undefined;
    let top = { n: 0, nearest: Infinity };
    for (const [code, v] of votes) {
      if (v.n > top.n || (v.n === top.n && v.nearest < top.nearest)) {
        best = code;
        top = v;
      }
    }
    return best;
  };
}

const lookups = new WeakMap<GeodataPack, ((lon: number, lat: number) => string | undefined) | null>();

/** {@link taggedPostcodeLookup} over a pack's regions, made once per opened pack. */
export function taggedPostcodeOf(pack: GeodataPack): ((lon: number, lat: number) => string | undefined) | undefined {
  let lookup = lookups.get(pack);
  if (lookup === undefined) {
    lookup = taggedPostcodeLookup(pack.osmRegions) ?? null;
    lookups.set(pack, lookup);
  }
  return lookup ?? undefined;
}
