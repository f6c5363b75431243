import type { TravelMode } from '../geofences/geofence.js';

/**
 * Top speeds, km/h: the straight-line bound within which a travel-time search asks the router (nobody
 * covers more ground than this in the time, whatever the roads).
 */
export const MAX_TRAVEL_SPEED_KMH: Readonly<Record<TravelMode, number>> = { foot: 7, bike: 35, car: 150 };

/** Straight-line meters no trip of `minutes` by the mode can exceed. */
export function maxTravelMeters(mode: TravelMode, minutes: number): number {
  return (MAX_TRAVEL_SPEED_KMH[mode] * 1000 * minutes) / 60;
}
