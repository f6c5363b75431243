import type { Metadata } from '../metadata.js';
import type { GeofenceType, TravelMode } from './geofence.js';

/** A fence as a PUT (or a row of an import) gives it; `coordinates` is checked with the shape. */
export interface GeofenceInput {
  description: string;
  type: GeofenceType;
  coordinates: unknown;
  radius?: number | undefined;
  mode?: TravelMode | undefined;
  metadata?: Metadata | undefined;
  userId?: string | undefined;
  enabled?: boolean | undefined;
  disableAfter?: number | undefined;
  deleteAfter?: number | undefined;
  stopDetection?: boolean | undefined;
  dwellThreshold?: number | undefined;
}
