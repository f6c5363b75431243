import type { Position } from '../../geo/types.js';
import type { Metadata } from '../metadata.js';

/** The user's standing in one geofence, kept between tracks. Times are epoch milliseconds. */
export interface GeofenceMembership {
  geofenceId: string;
  enteredAt: number;
  dwelled: boolean;
}

/** Whether the memberships include the fence. */
export function inGeofence(memberships: readonly GeofenceMembership[], geofenceId: string): boolean {
  return memberships.some((m) => m.geofenceId === geofenceId);
}

export type DeviceType = 'iOS' | 'Android' | 'Web';

/** A tracked user (device). Created and updated only by track. Times are epoch milliseconds. */
export interface User {
  id: string;
  projectId: string;
  live: boolean;
  userId: string | null;
  deviceId: string | null;
  installId: string | null;
  description: string | null;
  metadata: Metadata | null;
  location: Position | null;
  locationAccuracy: number | null;
  foreground: boolean | null;
  stopped: boolean | null;
  deviceType: DeviceType | null;
  ip: string | null;
  /**
   * What gave the last update's fix, as the SDK names it (`FOREGROUND_LOCATION`, `GEOFENCE_ENTER`, …);
   * the mobile SDKs read it back as the user's `source`. Absent from users stored before it was kept.
   */
  source?: string | null;
  geofences: GeofenceMembership[];
  /** Open-ended engine state (places, regions, insights, fraud, beacons) owned by the tracking domain. */
  state: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}
