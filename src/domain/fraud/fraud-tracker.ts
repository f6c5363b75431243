import { distanceMeters } from '../../geo/distance-meters.js';
import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';

/**
 * `jumped`: the move from the previous update, less both fixes' accuracy, is longer than this and
 * needs a speed above JUMP_SPEED (m/s) for the time between them. 300 m/s is above any airliner's
 * ground speed; the 2 km floor keeps two fixes a second apart, or a correction after a poor fix, from
 * counting.
 */
export const JUMP_MIN_METERS = 2000;
export const JUMP_SPEED_MPS = 300;

export interface FraudFlags {
  proxy: boolean;
  mocked: boolean;
  jumped: boolean;
}

/**
 * Server-side fraud checks of every track (docs/fraud.md), answered as `user.fraud`. `proxy` comes
 * from `isProxy` (the IP data); `mocked` is what the client reported; `jumped` is impossible travel.
 * Pure arithmetic on the update and the previous user: no store access.
 */
export class FraudTracker implements TrackParticipant {
  readonly name = 'fraud';

  constructor(private readonly isProxy: (ip: string) => boolean = () => false) {}

  onTrack(u: TrackUpdate): TrackContribution {
    const ip = u.user.ip;
    const fraud: FraudFlags = {
      proxy: ip ? this.isProxy(ip) : false,
      mocked: u.body.mocked === true || u.body.mocked === 'true',
      jumped: jumped(u),
    };
    return { events: [], userFields: { fraud } };
  }
}

/** Whether reaching this update from the previous one needs an impossible speed. */
export function jumped(u: TrackUpdate): boolean {
  const p = u.previous;
  if (!p?.location) return false;
  const meters = distanceMeters(p.location, u.location) - (p.locationAccuracy ?? 0) - u.accuracyMeters;
  if (meters <= JUMP_MIN_METERS) return false;
  const seconds = Math.max(1, (u.at - p.updatedAt) / 1000);
  return meters / seconds > JUMP_SPEED_MPS;
}
