/** What the scheduler needs of a track: its tenant and the advisory lock keys its transaction takes. */
export interface GroupableTrack {
  /** Tracks of one scope (tenant) only share a transaction: their keys then sort device before user. */
  readonly scope: string;
  readonly keys: readonly string[];
}

/**
 * Gathers the tracks that arrive in one turn of the event loop into groups that share one PostgreSQL
 * transaction (`run`), at most `maxGroups` groups at a time and `maxSize` tracks a group. A track
 * joins a group only when none of its lock keys is held by a group in flight or taken by the one
 * being formed: two tracks of one device or one app user never share a transaction, and the second
 * waits here, not on PostgreSQL's lock while its group's other tracks wait with it.
 *
 * A lone track at low load starts at once (a group of one); under load the groups in flight leave
 * the rest queued, and the next group takes up to `maxSize` of them: PostgreSQL's cost per track falls
 * from ~1 ms alone to ~0.45 ms sixteen to a transaction (bench/pg-track-batching.bench.ts).
 * `run` answers the tracks it put back (their transaction found them reaching a user another track
 * of the group reaches); they go first into the queue once the group has committed.
 */
export class TrackGroups<E extends GroupableTrack> {
  #queue: E[] = [];
  #held = new Set<string>();
  #inFlight = 0;
  #scheduled = false;

  constructor(
    private readonly maxGroups: number,
    private readonly maxSize: number,
    private readonly run: (group: E[]) => Promise<E[]>,
  ) {}

  add(entry: E): void {
    this.#queue.push(entry);
    // After this turn's other I/O callbacks: the tracks parsed in the same turn go out together.
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#pump();
      });
    }
  }

  /** Tracks queued and not yet in a transaction. */
  get waiting(): number {
    return this.#queue.length;
  }

  #pump(): void {
    while (this.#inFlight < this.maxGroups) {
      const group = this.#take();
      if (group.length === 0) return;
      this.#inFlight++;
      for (const e of group) for (const k of e.keys) this.#held.add(k);
      this.run(group).then(
        (putBack) => this.#finished(group, putBack),
        () => this.#finished(group, []),
      );
    }
  }

  #finished(group: E[], putBack: E[]): void {
    for (const e of group) for (const k of e.keys) this.#held.delete(k);
    this.#inFlight--;
    if (putBack.length > 0) this.#queue.unshift(...putBack);
    this.#pump();
  }

  /** The next group, in arrival order: the first free track fixes the scope; the others it skips wait. */
  #take(): E[] {
    const group: E[] = [];
    const taken = new Set<string>();
    const rest: E[] = [];
    for (const e of this.#queue) {
      const fits =
        group.length < this.maxSize &&
        (group.length === 0 || e.scope === group[0]!.scope) &&
        e.keys.every((k) => !this.#held.has(k) && !taken.has(k));
      // A track that cannot join keeps its keys' place: no later track of the same key may pass it.
      for (const k of e.keys) taken.add(k);
      if (fits) group.push(e);
      else rest.push(e);
    }
    this.#queue = rest;
    return group;
  }
}
