import type { NearestHit } from '../geodata/osm/addresses/address-layer.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import { addressResult, intersectionResult, placeResult, streetResult } from './fine-address.js';
import { addressRegions, placeRegions } from './fine-regions.js';
import type { GeocodeLayer } from './layers.js';

/** Farthest an address may be and still be the address of a point (a deep lot, a building's far side). */
export const ADDRESS_MAX_METERS = 100;
/** Farthest a street may be from a point and still be its street. */
export const STREET_MAX_METERS = 500;
/** Farthest an intersection may be and still be where a point is. */
export const INTERSECTION_MAX_METERS = 200;
/** Farthest a place may be and still be where a point is. */
export const PLACE_MAX_METERS = 100;

/**
 * Reverse geocoding over the imported OSM regions, finest first: the nearest address within
 * {@link ADDRESS_MAX_METERS}; the nearest street within {@link STREET_MAX_METERS} (only when no address was
 * found, unless `street` is asked for by name); the nearest intersection within
 * {@link INTERSECTION_MAX_METERS} and the nearest place within {@link PLACE_MAX_METERS} when those layers
 * are asked for by name. `distance` is meters from the point to the result's point (for a street, the
 * nearest point of its line, which is also where the result is placed).
 */
export function fineReverse(pack: GeodataPack, lon: number, lat: number, layers?: Set<GeocodeLayer>): GeocodeAddress[] {
  const wants = (l: GeocodeLayer) => !layers || layers.has(l);
  const named = (l: GeocodeLayer) => layers?.has(l) ?? false;
  const regions = addressRegions(pack);
  const out: GeocodeAddress[] = [];
  const best = (find: (r: (typeof regions)[number]) => NearestHit | null) => {
    let hit: { region: (typeof regions)[number]; hit: NearestHit } | null = null;
    for (const r of regions) {
      const h = find(r);
      if (h && (!hit || h.distance < hit.hit.distance)) hit = { region: r, hit: h };
    }
    return hit;
  };

  if (named('place')) {
    let nearest: { address: GeocodeAddress; distance: number } | null = null;
    for (const { layer } of placeRegions(pack)) {
      const [hit] = layer.nearby(lon, lat, PLACE_MAX_METERS, 1);
      if (hit && (!nearest || hit.distance < nearest.distance))
        nearest = { address: placeResult(pack, layer.record(hit.index)), distance: hit.distance };
    }
    if (nearest) out.push(withDistance(nearest.address, nearest.distance));
  }
  if (wants('address')) {
    const a = best(({ layer }) => layer.nearestAddresses(lon, lat, ADDRESS_MAX_METERS, 1)[0] ?? null);
    if (a) out.push(withDistance(addressResult(pack, a.region.layer, a.hit.index), a.hit.distance));
  }
  if (named('intersection')) {
    const x = best(({ layer }) => layer.nearestIntersection(lon, lat, INTERSECTION_MAX_METERS));
    if (x) out.push(withDistance(intersectionResult(pack, x.region.layer, x.hit.index), x.hit.distance));
  }
  if (named('street') || (wants('street') && out.length === 0)) {
    const s = best(({ layer }) => layer.nearestStreet(lon, lat, STREET_MAX_METERS));
    if (s)
      out.push(withDistance(streetResult(pack, s.region.layer, s.hit.index, [s.hit.lon, s.hit.lat]), s.hit.distance));
  }
  return out;
}

function withDistance(a: GeocodeAddress, meters: number): GeocodeAddress {
  a.distance = Math.round(meters);
  return a;
}
