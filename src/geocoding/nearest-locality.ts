import type { GeodataPack } from '../geodata/pack.js';

/** Farthest a populated place may be and still name the point's locality. */
export const LOCALITY_MAX_METERS = 30_000;
/** Farthest a city section (GeoNames `PPLX`) may be and still name the point's neighbourhood. */
export const NEIGHBORHOOD_MAX_METERS = 2_000;

/**
 * The locality of a point: GeoNames has no town boundaries, so each place gets a notional radius from its
 * population (`sqrt(pop / 2000 / π)` km: the radius of a disc at 2,000 people per km², at least 1.5 km),
 * and the place where the point lies deepest inside its radius (smallest distance / radius) wins. A point
 * 5 km from downtown Honolulu is in Honolulu even when a village point is 1 km away; a point at the
 * village centre is in the village. Places in another country than `countryCode` (when given) are skipped,
 * and none farther than {@link LOCALITY_MAX_METERS}. Returns the locality row, or -1.
 * @param lon longitude in degrees
 * @param lat latitude in degrees
 */
export function nearestLocality(pack: GeodataPack, lon: number, lat: number, countryCode?: string): number {
  const l = pack.localities;
  let best = -1;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const i of boxAround(pack, lon, lat, LOCALITY_MAX_METERS)) {
    if (l.isNeighborhood(i) || (countryCode && l.countryCode(i) !== countryCode)) continue;
    const d = distanceKm(lon, lat, l.lon[i]!, l.lat[i]!);
    if (d * 1000 > LOCALITY_MAX_METERS) continue;
    const score = d / Math.max(1.5, Math.sqrt(l.population[i]! / 2000 / Math.PI));
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

/** The nearest city section (neighbourhood) within {@link NEIGHBORHOOD_MAX_METERS}, or -1. */
export function nearestNeighborhood(pack: GeodataPack, lon: number, lat: number, countryCode?: string): number {
  const l = pack.localities;
  let best = -1;
  let bestKm = NEIGHBORHOOD_MAX_METERS / 1000;
  for (const i of boxAround(pack, lon, lat, NEIGHBORHOOD_MAX_METERS)) {
    if (!l.isNeighborhood(i) || (countryCode && l.countryCode(i) !== countryCode)) continue;
    const d = distanceKm(lon, lat, l.lon[i]!, l.lat[i]!);
    if (d <= bestKm) {
      bestKm = d;
      best = i;
    }
  }
  return best;
}

// Localities in the lon/lat box that holds the circle of `meters` around the point. A plain box search
// and a scan beat a best-first k-nearest search here: 30 km around even the densest city holds a few
// thousand places at most, and every one of them needs scoring anyway.
function boxAround(pack: GeodataPack, lon: number, lat: number, meters: number): number[] {
  const dLat = meters / 111_320;
  const dLon = dLat / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  return pack.localities.index.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
}

/** Great-circle distance in kilometres (haversine, mean Earth radius 6,371 km). */
export function distanceKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Distance in kilometres by the equirectangular approximation: within a few hundred kilometres it is within
 * a percent of the great circle, at a fraction of the cost; farther it only needs to be large.
 */
export function approxDistanceKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  let dLon = Math.abs(lon2 - lon1);
  if (dLon > 180) dLon = 360 - dLon;
  const x = dLon * Math.cos(((lat1 + lat2) * Math.PI) / 360);
  const y = lat2 - lat1;
  return 111.195 * Math.sqrt(x * x + y * y);
}
