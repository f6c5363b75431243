import type { TrackUnit } from '../../domain/ports/track-unit.js';
import type { Release } from '../../domain/tracking/keyed-mutex.js';
import type { WriteOp } from './write-ops.js';

/**
 * One track's commit unit on SQLite, as `SqliteUserStore.trackUpdate` hands it to the track: the
 * trip store adds its ops to it instead of committing them apart, so the trip moves with the user
 * and events in one transaction, or not at all. Trip locks taken for it are held until the unit ends:
 * a PATCH of the trip waits for the commit rather than reading the trip before it.
 */
export class SqliteTrackUnit implements TrackUnit {
  readonly trackUnit = true as const;
  readonly ops: WriteOp[] = [];
  /** Trip locks held for this unit, by key; released when it ends. */
  readonly held = new Map<string, Release>();
  private ended = false;

  /** Adds writes to the track's transaction. */
  add(ops: readonly WriteOp[]): void {
    if (this.ended) throw new Error('a write joined a track unit that has ended');
    this.ops.push(...ops);
  }

  /** Ends the unit (committed or not): its locks are released. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const release of this.held.values()) release();
    this.held.clear();
  }
}

/** The unit when it is this engine's; units of another store are not joined (their writes commit apart). */
export function sqliteUnit(unit: TrackUnit | undefined): SqliteTrackUnit | undefined {
  return unit instanceof SqliteTrackUnit ? unit : undefined;
}
