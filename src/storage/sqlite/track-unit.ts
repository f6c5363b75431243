import type { TrackUnit } from '../../domain/ports/track-unit.js';
import type { Release } from '../../domain/tracking/keyed-mutex.js';
import type { WriteOp } from './write-ops.js';

/**
 * One track's commit unit on SQLite, as `SqliteUserStore.trackUpdate` hands it to the track: the
 * trip store adds its ops (and commit-log lines) to it instead of committing them apart, so the trip
 * moves with the user and events in one transaction, or not at all. Trip locks taken for it are held
 * until the unit ends: a PATCH of the trip waits for the commit rather than reading the trip before it.
 */
export class SqliteTrackUnit implements TrackUnit {
  readonly trackUnit = true as const;
  readonly ops: WriteOp[] = [];
  readonly changes: string[] = [];
  /** Trip locks held for this unit, by key; released when it ends. */
  readonly held = new Map<string, Release>();
  private readonly settled: Array<(committed: boolean) => void> = [];
  private ended = false;

  /** Adds a write and the change line other processes read for it. */
  add(ops: readonly WriteOp[], change: string): void {
    if (this.ended) throw new Error('a write joined a track unit that has ended');
    this.ops.push(...ops);
    this.changes.push(change);
  }

  /** Runs `fn` once the unit has committed (true) or failed (false), before its locks are released. */
  onEnd(fn: (committed: boolean) => void): void {
    this.settled.push(fn);
  }

  /** Ends the unit once: its callbacks in the order given, then its locks. */
  end(committed: boolean): void {
    if (this.ended) return;
    this.ended = true;
    try {
      for (const fn of this.settled) fn(committed);
    } finally {
      for (const release of this.held.values()) release();
      this.held.clear();
    }
  }
}

/** The unit when it is this engine's; units of another store are not joined (their writes commit apart). */
export function sqliteUnit(unit: TrackUnit | undefined): SqliteTrackUnit | undefined {
  return unit instanceof SqliteTrackUnit ? unit : undefined;
}
