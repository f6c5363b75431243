import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { LocationEvent } from '../events/event.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import type { GeofenceIndexRegistry } from './geofence-index-registry.js';
import { KeyedMutex } from './keyed-mutex.js';
import { trackUser } from './track.js';
import type { TrackParticipant } from './track-participant.js';
import type { TrackRequest, TrackResult } from './track-request.js';

/** Called after a track committed, e.g. to move the user in the search index (or count its events). */
export type TrackedListener = (tenant: Tenant, user: User, events: readonly LocationEvent[]) => void;

/**
 * Location updates: `track` for one, `replay` for a client's offline buffer. Every update runs the
 * participants given (the track pipeline, see pipeline.ts), in order.
 */
export class TrackingService {
  private readonly participants: TrackParticipant[] = [];
  private readonly listeners = new Set<TrackedListener>();
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly users: UserStore,
    private readonly indexes: GeofenceIndexRegistry,
    private readonly clock: Clock,
    participants: readonly TrackParticipant[] = [],
  ) {
    this.participants.push(...participants);
  }

  /** Adds a participant after the pipeline's, for every later track (tests add one that waits, to open races). */
  addParticipant(participant: TrackParticipant): void {
    this.participants.push(participant);
  }

  onTracked(listener: TrackedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async track(req: TrackRequest): Promise<TrackResult> {
    const deps = {
      users: this.users,
      indexes: this.indexes,
      participants: this.participants,
      mutex: this.mutex,
      clock: this.clock,
    };
    const result = await trackUser(deps, req);
    for (const l of this.listeners) l(req.tenant, result.user, result.events);
    return result;
  }

  /**
   * Updates buffered offline, applied one after another as if each had arrived in turn (the client
   * sends them in chronological order), each in its own transaction. Returns every event and the
   * state after the last update.
   */
  async replay(reqs: readonly TrackRequest[]): Promise<TrackResult> {
    const events: TrackResult['events'] = [];
    let last: TrackResult | undefined;
    for (const req of reqs) {
      // A turn of the event loop before each: a track that finds its stores in memory awaits nothing
      // real, and 1,000 of them in a row would hold every other request.
      if (last) await nextTurn();
      last = await this.track({ ...req, replayed: true });
      events.push(...last.events);
    }
    if (!last) throw new Error('replay needs at least one update');
    return { ...last, events };
  }
}
