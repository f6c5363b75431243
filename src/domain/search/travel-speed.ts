import type { TravelMode } from '../geofences/geofence.js';

/**
 * Average speeds for travel-time searches, km/h. An estimate over straight-line (great-circle)
 * distance until road routing lands: real travel is slower where roads detour.
 */
export const TRAVEL_SPEED_KMH: Readonly<Record<TravelMode, number>> = { foot: 5, bike: 15, car: 40 };

/** Meters of straight-line distance covered in `minutes` at the mode's average speed. */
export function travelMeters(mode: TravelMode, minutes: number): number {
  return (TRAVEL_SPEED_KMH[mode] * 1000 * minutes) / 60;
}

/**
 * Top speeds, km/h: the straight-line bound within which a travel-time search asks the router (nobody
 * covers more ground than this in the time, whatever the roads).
 */
export const MAX_TRAVEL_SPEED_KMH: Readonly<Record<TravelMode, number>> = { foot: 7, bike: 35, car: 120 };

/** Straight-line meters no trip of `minutes` by the mode can exceed. */
export function maxTravelMeters(mode: TravelMode, minutes: number): number {
  return (MAX_TRAVEL_SPEED_KMH[mode] * 1000 * minutes) / 60;
}
