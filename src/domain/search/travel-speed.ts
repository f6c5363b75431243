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
