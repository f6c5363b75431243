import { cutPage, type Page, type PageQuery } from '../../domain/pagination.js';
import type { SqliteDb } from './open-database.js';
import { statement } from './paged-query.js';

/** A user in a fence, with the time it pages by (the user's updatedAt, epoch ms). */
export interface FenceMember {
  id: string;
  t: number;
}

/** Every membership with its user's updatedAt: one pass over both tables, for the first use. */
const ALL_MEMBERSHIPS = `SELECT m.geofence_id, m.user_pk, u.updated_at FROM user_geofences AS m
  JOIN users AS u ON u.id = m.user_pk`;
const MEMBERSHIPS_OF_USER = `SELECT m.geofence_id, u.updated_at FROM user_geofences AS m
  JOIN users AS u ON u.id = m.user_pk WHERE m.user_pk = ?`;

/**
 * Which users each fence holds, and their updatedAt: what `GET /v1/geofences/:tag/:externalId/users`
 * pages through and what deleting a fence removes. The database keeps memberships by user only
 * (user_geofences, one leaf per user); an index keyed by fence and time cost every track a random
 * B-tree leaf per membership, about half the WAL frames a track wrote (session 24, BENCH_WAL_FRAMES),
 * and every known device's track a re-stamp of its rows.
 *
 * Built on first use by one pass over the table, then kept current by this process's commits
 * (`wrote`, after each commit) and other processes' (`reread`, from the commit log). It never misses
 * a member: every write that adds one reaches it. It may still name one that has left (a write whose
 * fences before were read stale, a user deleted elsewhere) or hold an old time; readers check the
 * user's document and correct it (`correct`).
 */
export class FenceMembers {
  #byFence: Map<string, Map<string, number>> | null = null;

  constructor(private readonly db: SqliteDb) {}

  /** The fence's members, building the whole map on first use. */
  of(fenceId: string): ReadonlyMap<string, number> {
    return this.#map().get(fenceId) ?? new Map<string, number>();
  }

  /**
   * A page of the fence's members, newest first, cut like `pagedDocs` (a run of equal times is never
   * split). A full sort per page: fine for thousands of members, tens of ms at a hundred thousand.
   */
  page(fenceId: string, q: PageQuery): Page<FenceMember> {
    const rows: FenceMember[] = [];
    for (const [id, t] of this.of(fenceId)) {
      if ((q.before === undefined || t < q.before) && (q.after === undefined || t > q.after)) rows.push({ id, t });
    }
    rows.sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return cutPage(rows, q.limit, (r) => r.t);
  }

  /** This process committed user `userPk` at `t`, in `after` (fence ids) and out of the rest of `before`. */
  wrote(userPk: string, t: number, before: readonly string[], after: readonly string[]): void {
    const map = this.#byFence;
    if (!map) return;
    for (const f of before) if (!after.includes(f)) map.get(f)?.delete(userPk);
    for (const f of after) add(map, f, userPk, t);
  }

  /**
   * Another process wrote user `userPk`: its memberships as stored now. Fences it left stay named
   * until a reader corrects them (which fences it was in is not known here).
   */
  reread(userPk: string): void {
    const map = this.#byFence;
    if (!map) return;
    const rows = statement(this.db, MEMBERSHIPS_OF_USER).raw().all(userPk) as Array<[string, number]>;
    for (const [fenceId, t] of rows) add(map, fenceId, userPk, t);
  }

  /** What a reader found in the user's document: its time, or null when it is no longer in the fence. */
  correct(fenceId: string, userPk: string, t: number | null): void {
    const members = this.#byFence?.get(fenceId);
    if (!members) return;
    if (t === null) members.delete(userPk);
    else members.set(userPk, t);
  }

  /** The fence was deleted with its membership rows. */
  dropFence(fenceId: string): void {
    this.#byFence?.delete(fenceId);
  }

  /** Memberships changed in ways not said (a bulk load elsewhere): rebuilt at the next use. */
  forget(): void {
    this.#byFence = null;
  }

  #map(): Map<string, Map<string, number>> {
    if (this.#byFence) return this.#byFence;
    const map = new Map<string, Map<string, number>>();
    for (const [fenceId, userPk, t] of statement(this.db, ALL_MEMBERSHIPS).raw().iterate() as Iterable<
      [string, string, number]
    >) {
      add(map, fenceId, userPk, t);
    }
    this.#byFence = map;
    return map;
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
