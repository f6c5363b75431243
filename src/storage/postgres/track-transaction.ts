import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Trip } from '../../domain/trips/trip.js';

/** A track transaction, as the stores see it from inside the track's `compute`. */
export interface TrackTransaction {
  /**
   * Its connection. A track's participants (trips) take their locks on it instead of on a connection
   * of their own: a track already holds one, and holding a second while waiting could use up the pool.
   */
  client: pg.PoolClient;
  /**
   * Active trips that may belong to the tracked user, read in the transaction's first batch so the
   * trips step needs no round trip of its own (see `PostgresTripStore.activeFor`); null once a trip
   * write makes them stale.
   */
  activeTrips: PrefetchedTrips | null;
  /**
   * Set when the transaction holds several tracks (track-groups.ts): called with each lock key a
   * track's participants take beyond its identity (a trip's), it throws `GroupConflict` when another
   * track of the transaction took it. Advisory locks are re-entrant within a transaction, so the
   * second track would not wait for the first's writes; its group is then run again track by track.
   */
  claim?: (key: string) => void;
}

/** Two tracks of one transaction reached one lock key: run them apart. */
export class GroupConflict extends Error {
  constructor(key: string) {
    super(`two tracks of one transaction took the lock ${key}`);
  }
}

export interface PrefetchedTrips {
  /** `_id`s of the users the identity can reach, and their app userIds, plus the track's own ids. */
  userPks: Set<string>;
  userIds: Set<string>;
  deviceId: string;
  rows: Array<{
    doc: Trip;
    user_pk: string | null;
    user_id: string | null;
    device_id: string | null;
    created_at: number;
  }>;
}

export const trackTransaction = new AsyncLocalStorage<TrackTransaction>();

/** Blocks until this transaction holds the advisory lock named `key`; COMMIT or ROLLBACK frees it. */
export async function lockForTransaction(c: pg.PoolClient, key: string): Promise<void> {
  await c.query({ name: 'xact-lock', text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', values: [key] });
}

/** `lockForTransaction` on the track's own transaction, once no other track of it has the key. */
export function lockInTrack(track: TrackTransaction, key: string): Promise<void> {
  track.claim?.(key);
  return lockForTransaction(track.client, key);
}
