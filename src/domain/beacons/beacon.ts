import type { Position } from '../../geo/types.js';
import type { Metadata } from '../metadata.js';

/** An iBeacon registered by the operator. Times are epoch milliseconds. */
export interface Beacon {
  id: string;
  projectId: string;
  live: boolean;
  description: string;
  tag: string | null;
  externalId: string | null;
  type: 'ibeacon';
  /** Lower-case canonical UUID. */
  uuid: string;
  major: string;
  minor: string;
  /** `[lon, lat]`; approximate location used to sync nearby beacons to clients. */
  location: Position | null;
  enabled: boolean;
  metadata: Metadata | null;
  createdAt: number;
  updatedAt: number;
}
