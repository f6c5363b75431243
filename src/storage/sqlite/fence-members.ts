import { cutPage, type Page, type PageQuery } from '../../domain/pagination.js';
import { type GeofenceMembership, inGeofence } from '../../domain/users/user.js';
import type { SqliteDb } from './open-database.js';
import { statement } from './paged-query.js';

/** A user in a fence, with the time it pages by (the user's updatedAt, epoch ms). */
export interface FenceMember {
  id: string;
  t: number;
}

/** Memberships with their user's updatedAt, in key order from after `(user_pk, geofence_id)`: one chunk of the first pass. */
export const MEMBERSHIPS_AFTER = `SELECT m.geofence_id, m.user_pk, u.updated_at FROM user_geofences AS m
  JOIN users AS u ON u.id = m.user_pk WHERE (m.user_pk, m.geofence_id) > (?, ?)
  ORDER BY m.user_pk, m.geofence_id LIMIT ?`;
/**
 * Rows a chunk of the first pass reads before the event loop serves others: ~10 ms. A pass over 1.1
 * million memberships in one go held the loop for 1.8 s (500,000 users, 2026-11-28).
 */
const CHUNK_ROWS = 5_000;

/**
 * Which users each fence holds, and their updatedAt: what `GET /v1/geofences/:tag/:externalId/users`
 * pages through and what deleting a fence removes. The database keeps memberships by user only
 * (user_geofences, one leaf per user); an index keyed by fence and time cost every track a random
 * B-tree leaf per membership, about half the WAL frames a track wrote (session 24, BENCH_WAL_FRAMES),
 * and every known device's track a re-stamp of its rows.
 *
 * Built on first use by one pass over the table in chunks (`ready`), then kept current by the store's
 * commits (`wrote`, after each commit), applied from the pass's start, so a write landing between two
 * chunks is not lost. It never misses a member: every write that adds one reaches it. It may still
 * name one that has left (a write whose fences before were read stale) or hold an old time; readers
 * check the user's document and correct it (`correct`). Another process's commit (the CLI) drops it
 * whole (`forget`): it is built again at the next use.
 */
export class FenceMembers {
  #byFence: Map<string, Map<string, number>> | null = null;
  /** The first pass, while it runs; `#complete` once it has read every row. */
  #building: Promise<void> | null = null;
  #complete = false;

  constructor(
    private readonly db: SqliteDb,
    private readonly chunkRows = CHUNK_ROWS,
  ) {}

  /** Resolves once the map holds every membership; the first call starts the pass. */
  async ready(): Promise<void> {
    // A pass that `forget` cut short is started again.
    while (!this.#complete) {
      this.#building ??= this.#build().catch((err: unknown) => {
        // A failed read (a closed database) fails this call; the next one tries again.
        this.forget();
        throw err;
      });
      await this.#building;
    }
  }

  /** The fence's members, or null while the map is not complete (before `ready` resolved). */
  ifBuilt(fenceId: string): ReadonlyMap<string, number> | null {
    if (!this.#complete) return null;
    return this.#byFence!.get(fenceId) ?? new Map<string, number>();
  }

  /**
   * A page of the fence's members, newest first, cut like `pagedDocs` (a run of equal times is never
   * split). A full sort per page: fine for thousands of members, tens of ms at a hundred thousand.
   */
  page(fenceId: string, q: PageQuery): Page<FenceMember> {
    const members = this.ifBuilt(fenceId);
    if (!members) throw new Error('FenceMembers.page before ready()');
    const rows: FenceMember[] = [];
    for (const [id, t] of members) {
      if ((q.before === undefined || t < q.before) && (q.after === undefined || t > q.after)) rows.push({ id, t });
    }
    rows.sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return cutPage(rows, q.limit, (r) => r.t);
  }

  /**
   * The store committed user `userPk` at `t`, in the fences of `after` and out of the rest of
   * `before` (the user's memberships, as stored before and now). Nothing to do before the first use.
   */
  wrote(userPk: string, t: number, before: readonly GeofenceMembership[], after: readonly GeofenceMembership[]): void {
    const map = this.#byFence;
    if (!map) return;
    for (const { geofenceId } of before) {
      if (!inGeofence(after, geofenceId)) map.get(geofenceId)?.delete(userPk);
    }
    for (const { geofenceId } of after) add(map, geofenceId, userPk, t);
  }

  /** What a reader found in the user's document: its time, or null when it is no longer in the fence. */
  correct(fenceId: string, userPk: string, t: number | null): void {
    const map = this.#byFence;
    if (!map) return;
    if (t === null) map.get(fenceId)?.delete(userPk);
    else add(map, fenceId, userPk, t);
  }

  /** The fence was deleted with its membership rows. */
  dropFence(fenceId: string): void {
    this.#byFence?.delete(fenceId);
  }

  /** Memberships may have changed in ways not said (another process committed): rebuilt at the next use. */
  forget(): void {
    this.#byFence = null;
    this.#building = null;
    this.#complete = false;
  }

  async #build(): Promise<void> {
    const map = new Map<string, Map<string, number>>();
    this.#byFence = map;
    let after: [string, string] = ['', ''];
    for (;;) {
      const more = this.#readChunk(map, after);
      if (!more) break;
      after = more;
      await new Promise((resolve) => setImmediate(resolve));
      // Forgotten meanwhile: `ready` starts again.
      if (this.#byFence !== map) return;
    }
    this.#complete = true;
  }

  /** Adds one chunk of rows after `after`; the key to go on from, or null after the last. */
  #readChunk(map: Map<string, Map<string, number>>, after: [string, string]): [string, string] | null {
    const rows = statement(this.db, MEMBERSHIPS_AFTER).raw().all(after[0], after[1], this.chunkRows) as Array<
      [string, string, number]
    >;
    for (const [fenceId, userPk, t] of rows) add(map, fenceId, userPk, t);
    const last = rows[rows.length - 1];
    return rows.length < this.chunkRows || !last ? null : [last[1], last[0]];
  }
}

function add(map: Map<string, Map<string, number>>, fenceId: string, userPk: string, t: number): void {
  let members = map.get(fenceId);
  if (!members) {
    members = new Map();
    map.set(fenceId, members);
  }
  members.set(userPk, t);
}
