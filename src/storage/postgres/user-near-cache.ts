import type { LRUCache } from 'lru-cache';
import type pg from 'pg';
import type { StoreChange } from '../../domain/ports/store.js';
import { UserLocationIndex } from '../../domain/search/user-location-index.js';
import { keptUsers, MAX_KEPT_USERS } from '../../domain/search/user-location-registry.js';
import { type Tenant, tenantKey } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';
import type { Position } from '../../geo/types.js';
import { type ChangeNotifier, USERS_CHANNEL } from './change-notifier.js';
import { inTransaction } from './open-pool.js';

/**
 * A user write as announced on USERS_CHANNEL: `[projectId, live, _id, lon, lat, version]`, lon and lat
 * null when the user has no location or was deleted. The writer sends all but the version
 * (`userChangePrefix`); the statement that writes the row appends the version it gave it.
 */
type UserChange = [string, boolean, string, number | null, number | null, number];

/** The announcement of a write of `user` (null location: deleted), up to its version. */
export function userChangePrefix(tenant: Tenant, id: string, location: Position | null): string {
  const json = JSON.stringify([tenant.projectId, tenant.live, id, location?.[0] ?? null, location?.[1] ?? null]);
  return `${json.slice(0, -1)},`;
}

/**
 * The advisory lock a user write holds shared (from before its write until it commits) and a process
 * that starts to watch the tenant takes exclusively while it registers: once registered, every write
 * in flight has committed (the load that follows reads it) and every later one sees the registration.
 */
export function watchLockKey(tenant: Tenant): string {
  return `${tenant.projectId}|${tenant.live}|users-watch`;
}

/**
 * SQL: the announcement of a user write (`payload`, an SQL text expression), sent only when some process
 * watches the tenant (`project`, `live`: SQL expressions). Unwatched, a write announces nothing: a
 * notification wakes every backend that LISTENs on any channel.
 */
export function announceUserWrite(project: string, live: string, payload: string): string {
  return `CASE WHEN EXISTS (SELECT 1 FROM user_watchers WHERE project_id = ${project} AND live = ${live})
    THEN pg_notify('${USERS_CHANNEL}', ${payload}) END`;
}

interface TenantUsers {
  index: UserLocationIndex;
  /** The version of the last write applied, by `_id`, deleted users included (ids are never reused). */
  versions: Map<string, number>;
  /**
   * Stored users at the version in `versions`, as written here or read by searches, bounded as
   * UserLocationRegistry keeps them for SQLite.
   */
  docs: LRUCache<string, User>;
}

interface Loading {
  done: Promise<TenantUsers>;
  /** Writes heard while the tenant's users load, applied after them (versions decide). */
  pending: Array<{ id: string; location: Position | null; version: number; doc: User | null }>;
}

/** Accepts every user: `nearest` takes a filter; the domain filters metadata itself. */
const anyUser = (): boolean => true;

/**
 * Users near a point answered from memory in every API process: each keeps its tenants' user
 * locations in an R-tree (the domain's UserLocationIndex) and the stored users its searches read,
 * moved by its own writes as they commit and by every process's writes as PostgreSQL announces them
 * (USERS_CHANNEL, in commit order). A user search then costs no GiST scan, and no round trip at all
 * once the users it returns are kept. Versions (migration 6) order a process's own commits against
 * the announcements of others' later writes, which may reach it first. A tenant is loaded on its
 * first search, after LISTEN is in place; bulk loads and a lost LISTEN connection drop what is kept.
 */
export class UserNearCache {
  private readonly tenants = new Map<string, TenantUsers | Loading>();
  private subscribed: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly notifier: ChangeNotifier,
  ) {
    notifier.subscribe((change) => this.storeChanged(change));
  }

  /**
   * Located users within `radiusMeters` of `near`, nearest first, `limit` from `offset`, as stored
   * now (up to the announcements still on their way from other processes).
   */
  async near(tenant: Tenant, near: Position, radiusMeters: number, limit: number, offset: number): Promise<User[]> {
    const t = await this.tenant(tenant);
    for (;;) {
      const ids = t.index
        .nearest(near, radiusMeters, offset + limit, anyUser)
        .slice(offset)
        .map((c) => c.id);
      const missing = ids.filter((id) => !t.docs.has(id));
      if (missing.length > 0) await this.read(tenant, t, missing);
      // A user deleted before its announcement arrived leaves the index; the page is then looked for again.
      const gone = ids.filter((id) => !t.docs.has(id));
      if (gone.length === 0 || this.tenants.get(tenantKey(tenant)) !== t)
        return ids.flatMap((id) => t.docs.get(id) ?? []);
      for (const id of gone) t.index.remove(id);
    }
  }

  /** This process committed a write of `user` (null: deleted `id`) at `version`. */
  written(tenant: Tenant, id: string, user: User | null, version: number): void {
    const t = this.tenants.get(tenantKey(tenant));
    if (t === undefined) return;
    const location = user?.location ?? null;
    if ('pending' in t) t.pending.push({ id, location, version, doc: user });
    else apply(t, id, location, version, user);
  }

  private heard(payload: string): void {
    const [projectId, live, id, lon, lat, version] = JSON.parse(payload) as UserChange;
    const t = this.tenants.get(tenantKey({ projectId, live }));
    if (t === undefined) return;
    const location: Position | null = lon === null || lat === null ? null : [lon, lat];
    if ('pending' in t) t.pending.push({ id, location, version, doc: null });
    else apply(t, id, location, version, null);
  }

  private storeChanged(change: StoreChange): void {
    if (change.kind !== 'unknown' && change.kind !== 'users') return;
    if (change.tenant) this.tenants.delete(tenantKey(change.tenant));
    else this.tenants.clear();
  }

  private tenant(tenant: Tenant): TenantUsers | Promise<TenantUsers> {
    const key = tenantKey(tenant);
    const found = this.tenants.get(key);
    if (found !== undefined) return 'pending' in found ? found.done : found;
    const loading: Loading = { done: this.load(tenant, () => loading), pending: [] };
    this.tenants.set(key, loading);
    loading.done.then(
      (t) => {
        if (this.tenants.get(key) === loading) this.tenants.set(key, t);
      },
      () => {
        if (this.tenants.get(key) === loading) this.tenants.delete(key);
      },
    );
    return loading.done;
  }

  private async load(tenant: Tenant, loading: () => Loading): Promise<TenantUsers> {
    this.subscribed ??= this.notifier
      .subscribeUsers((payload) => this.heard(payload))
      .catch((err: unknown) => {
        this.subscribed = null;
        throw err;
      });
    // Listening and registered first: every write the reads below miss is announced.
    await this.subscribed;
    await this.watch(tenant);
    const { rows } = await this.pool.query<{ id: string; version: number; x: number; y: number }>(
      `SELECT id, version, ST_X(location::geometry) AS x, ST_Y(location::geometry) AS y FROM users
       WHERE project_id = $1 AND live = $2 AND location IS NOT NULL`,
      [tenant.projectId, tenant.live],
    );
    const t: TenantUsers = { index: new UserLocationIndex(), versions: new Map(), docs: keptUsers() };
    t.index.load(rows.map((r) => ({ id: r.id, location: [r.x, r.y], metadata: null })));
    for (const r of rows) t.versions.set(r.id, r.version);
    // The documents too, as many as are kept (the most recently updated): read ten at a time by the
    // searches instead, they cost PostgreSQL a query per search until every user has been returned once.
    const docs = await this.pool.query<{ doc: User; version: number }>(
      `SELECT doc, version FROM users WHERE project_id = $1 AND live = $2 AND location IS NOT NULL
       ORDER BY updated_at DESC LIMIT ${MAX_KEPT_USERS}`,
      [tenant.projectId, tenant.live],
    );
    for (const r of docs.rows) apply(t, r.doc.id, r.doc.location ?? null, r.version, r.doc);
    for (const w of loading().pending) apply(t, w.id, w.location, w.version, w.doc);
    return t;
  }

  /**
   * Registers this process's listening backend as a watcher of the tenant, after the writes in flight
   * (see `watchLockKey`), dropping watchers whose backend is gone (a process that died).
   */
  private async watch(tenant: Tenant): Promise<void> {
    const pid = this.notifier.listenerPid();
    if (pid === undefined) throw new Error('not listening for user writes');
    await inTransaction(this.pool, async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [watchLockKey(tenant)]);
      await c.query(
        `DELETE FROM user_watchers w WHERE project_id = $1 AND live = $2
           AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = w.pid)`,
        [tenant.projectId, tenant.live],
      );
      await c.query('INSERT INTO user_watchers (project_id, live, pid) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
        tenant.projectId,
        tenant.live,
        pid,
      ]);
    });
  }

  /** Reads stored users into `t` (those missing are deleted: they leave `t.docs` empty-handed). */
  private async read(tenant: Tenant, t: TenantUsers, ids: string[]): Promise<void> {
    const { rows } = await this.pool.query<{ doc: User; version: number }>({
      name: 'users-near-docs',
      text: 'SELECT doc, version FROM users WHERE id = ANY($1::text[]) AND project_id = $2 AND live = $3',
      values: [ids, tenant.projectId, tenant.live],
    });
    for (const r of rows) apply(t, r.doc.id, r.doc.location ?? null, r.version, r.doc);
  }
}

/**
 * Applies a write unless a newer one is applied already; at the same version, only to keep the
 * document (written here, or read from the table) when it is not kept yet.
 */
function apply(t: TenantUsers, id: string, location: Position | null, version: number, doc: User | null): void {
  const known = t.versions.get(id);
  if (known !== undefined && (known > version || (known === version && doc === null))) return;
  t.versions.set(id, version);
  if (location) t.index.upsert(id, location, null);
  else t.index.remove(id);
  if (doc) t.docs.set(id, doc);
  else t.docs.delete(id);
}
