import type { Geofence } from '../geofences/geofence.js';
import { GeofenceIndex } from '../geofences/geofence-index.js';
import type { TreeBuilder } from '../geofences/packed-tree.js';
import { type PreparedGeofence, prepareGeofence } from '../geofences/prepared-geofence.js';
import type { Page } from '../pagination.js';
import type { GeofenceListQuery } from '../ports/geofence-store.js';
import type { StoreChange } from '../ports/store.js';
import { type Tenant, tenantKey } from '../tenant.js';
import { leanGeofence } from './lean-geofence.js';
import { TagIds } from './tag-ids.js';

/** Where fences come from: the store's newest-first pages. */
export interface GeofenceSource {
  list(tenant: Tenant, query: GeofenceListQuery): Promise<Page<Geofence>>;
  get(tenant: Tenant, id: string): Promise<Geofence | null>;
}

// Fences read per store query while loading: bounds the memory of parsed documents in flight, and
// (SQLite reads being synchronous) how long the event loop is held between two turns: ~30 ms a page.
const LOAD_PAGE = 1000;
// See `reloadSoon`.
const RELOAD_QUIET_MS = 300;
const RELOAD_MAX_WAIT_MS = 3000;
// See `storeChanged`. Refreshing one fence (a store read, then the index's upsert) cost ~40-60 µs on a
// 2-core VM; reloading one ~30 µs, plus a second index in memory until the swap.
const REFRESH_SLICE_MS = 4;
const RELOAD_INSTEAD_MIN = 1000;

/** A write to one tenant's fences, as `GeofenceService.onChange` reports it. */
export interface GeofenceChange {
  upserted?: Geofence;
  deletedId?: string;
}

interface Entry {
  tenant: Tenant;
  /** The index being served; null until the first load finishes. */
  index: GeofenceIndex | null;
  /** A load in flight: the first one, or a reload after another process wrote. */
  loading: Promise<GeofenceIndex> | null;
  /** Changes made while `loading`: replayed onto the new index (upsert and remove are idempotent). */
  pending: GeofenceChange[];
  /** A reload waiting for other processes' writes to pause, and when the first of them was seen. */
  reloadTimer?: NodeJS.Timeout | undefined;
  staleSince?: number | undefined;
  /** Fences other processes wrote, to read back and apply (`storeChanged`); drained while `refreshing`. */
  toRefresh: Set<string>;
  refreshing: boolean;
}

/**
 * One `GeofenceIndex` per tenant, loaded from the store on first use and kept in step with writes:
 * this process's writes arrive through `apply` (wired to `GeofenceService.onChange`), other processes'
 * through `storeChanged` (wired to `Store.onExternalChange`), which reloads in the background while
 * the old index keeps serving.
 */
export class GeofenceIndexRegistry {
  private readonly entries = new Map<string, Entry>();

  /**
   * `syncExternalChanges` (the store's) is called before a tenant's first load: other processes'
   * commits made so far are then in that load, and not reported again afterwards by a poll that fell
   * behind while the load kept the event loop busy (which would load all the tenant's fences twice).
   * `buildTree` sorts the indexes' rebuilt trees elsewhere (see `GeofenceIndex`).
   */
  constructor(
    private readonly source: GeofenceSource,
    private readonly syncExternalChanges: () => void = () => {},
    private readonly buildTree?: TreeBuilder,
  ) {}

  /** The tenant's index, loading it on first use. */
  get(tenant: Tenant): GeofenceIndex | Promise<GeofenceIndex> {
    let entry = this.entries.get(tenantKey(tenant));
    if (!entry) {
      this.syncExternalChanges();
      entry = { tenant, index: null, loading: null, pending: [], toRefresh: new Set(), refreshing: false };
      this.entries.set(tenantKey(tenant), entry);
      this.reload(entry);
    }
    return entry.index ?? entry.loading!;
  }

  /**
   * The tenant's fence holding `tag` + `externalId` (lean, as the index keeps it; fences past
   * deleteAfter included, as the store's `getByTag` returns them), or null. For lookups on every
   * track, such as a trip's destination: the index follows this process's writes at once and other
   * processes' after their reload delay, without a store read each time.
   */
  async byTag(tenant: Tenant, tag: string, externalId: string): Promise<Geofence | null> {
    const index = await this.get(tenant);
    const id = tagsOf(index).get(tag, externalId);
    return id === undefined ? null : (index.get(id)?.geofence ?? null);
  }

  /** Applies a write made through this process. Tenants not loaded yet are left alone. */
  apply(tenant: Tenant, change: GeofenceChange): void {
    const entry = this.entries.get(tenantKey(tenant));
    if (!entry) return;
    if (entry.index) applyChange(entry.index, change);
    if (entry.loading) entry.pending.push(change);
  }

  /**
   * Another process wrote. A change that names one fence of a loaded tenant is applied alone (read
   * back from the store: present means upserted, absent means deleted), a few milliseconds of them
   * per turn of the event loop: a commit of 10,000 fences by another process, read back in one piece,
   * held a server's loop for a second. Each is read when its turn comes, so it applies the fence as
   * it stands then (a quick upsert-then-delete ends deleted, and a fence named twice is read once).
   * More of them waiting than half the index holds, or anything vaguer, reloads the tenant instead.
   */
  storeChanged(change: StoreChange): void {
    if (change.kind !== 'unknown' && change.kind !== 'geofences') return;
    const { tenant, id } = change;
    if (tenant && id !== undefined) {
      const entry = this.entries.get(tenantKey(tenant));
      // A reload that has not started reading yet will read this write too.
      if (!entry || entry.reloadTimer) return;
      entry.toRefresh.add(id);
      if (entry.toRefresh.size > Math.max(RELOAD_INSTEAD_MIN, (entry.index?.size ?? 0) / 2)) this.reloadSoon(entry);
      else if (!entry.refreshing) void this.refresh(entry);
      return;
    }
    for (const entry of this.entries.values()) {
      if (!change.tenant || tenantKey(change.tenant) === tenantKey(entry.tenant)) this.reloadSoon(entry);
    }
  }

  /** Reads back and applies `entry.toRefresh`, REFRESH_SLICE_MS at a time. */
  private async refresh(entry: Entry): Promise<void> {
    entry.refreshing = true;
    try {
      let sliceStart = performance.now();
      for (const id of entry.toRefresh) {
        entry.toRefresh.delete(id);
        const g = await this.source.get(entry.tenant, id);
        this.apply(entry.tenant, g ? { upserted: g } : { deletedId: id });
        if (performance.now() - sliceStart > REFRESH_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
    } catch {
      entry.toRefresh.clear();
      this.reload(entry);
    } finally {
      entry.refreshing = false;
    }
  }

  /**
   * Reloads once other processes' writes pause for RELOAD_QUIET_MS (at most RELOAD_MAX_WAIT_MS after
   * the first): a bulk import of many commits then costs one reload, not one per commit, each of
   * which keeps a SQLite server's event loop busy for as long as it reads every fence. The index in
   * service meanwhile still takes this process's own writes. Fences waiting to be read back one by
   * one are left to the reload, which reads them all.
   */
  private reloadSoon(entry: Entry): void {
    entry.toRefresh.clear();
    const now = Date.now();
    entry.staleSince ??= now;
    if (entry.reloadTimer) clearTimeout(entry.reloadTimer);
    const wait = Math.min(RELOAD_QUIET_MS, Math.max(0, entry.staleSince + RELOAD_MAX_WAIT_MS - now));
    entry.reloadTimer = setTimeout(() => {
      entry.reloadTimer = undefined;
      entry.staleSince = undefined;
      if (this.entries.get(tenantKey(entry.tenant)) === entry) this.reload(entry);
    }, wait);
    entry.reloadTimer.unref();
  }

  /**
   * Every fence of the tenant, lean and prepared, page by page (fences past deleteAfter included:
   * detection skips them). Prepared here, a page per turn of the event loop: preparing them all in the
   * index's `load` held the loop for most of the ~0.7 s that loading 100,000 fences takes.
   */
  private async loadAll(tenant: Tenant): Promise<PreparedGeofence[]> {
    const out: PreparedGeofence[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await this.source.list(tenant, {
        limit: LOAD_PAGE,
        now: 0,
        ...(before !== undefined ? { before } : {}),
      });
      for (const g of page.items) out.push(prepareGeofence(leanGeofence(g)));
      const last = page.items[page.items.length - 1];
      if (!page.hasMore || !last) return out;
      before = last.createdAt;
      // A turn of the event loop between pages: other requests go on while a large index loads
      // (100,000 fences held a SQLite server's loop ~3 s in one piece).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private reload(entry: Entry): void {
    entry.pending = [];
    const load = this.loadAll(entry.tenant).then((prepared) => {
      const index = new GeofenceIndex(this.buildTree ? { buildTree: this.buildTree } : {});
      index.loadPrepared(prepared);
      const tags = tagsOf(index);
      // In load order, as the index keeps the last of duplicate ids.
      for (const { geofence: g } of prepared) {
        if (g.tag !== null && g.externalId !== null) tags.set(g.tag, g.externalId, g.id);
      }
      for (const change of entry.pending) applyChange(index, change);
      return index;
    });
    entry.loading = load;
    load.then(
      (index) => {
        if (entry.loading !== load) return;
        entry.index = index;
        entry.loading = null;
        entry.pending = [];
      },
      () => {
        // The callers awaiting a first load see the error, and the next call retries. An index in
        // service lacks the other processes' writes this reload was to read (`storeChanged` leaves
        // them to it): it tries again.
        if (entry.loading !== load) return;
        entry.loading = null;
        if (!entry.index) this.entries.delete(tenantKey(entry.tenant));
        else this.reloadSoon(entry);
      },
    );
  }
}

/**
 * Tag + externalId to fence id, per index (the unique key of a tenant's fences). Kept beside the
 * index rather than in it: it changes exactly where the index does, in `reload` and `applyChange`.
 */
const tagIds = new WeakMap<GeofenceIndex, TagIds>();

function tagsOf(index: GeofenceIndex): TagIds {
  let tags = tagIds.get(index);
  if (!tags) {
    tags = new TagIds();
    tagIds.set(index, tags);
  }
  return tags;
}

function applyChange(index: GeofenceIndex, change: GeofenceChange): void {
  const tags = tagsOf(index);
  const forget = (id: string) => {
    const old = index.get(id)?.geofence;
    if (old && old.tag !== null && old.externalId !== null) tags.deleteIf(old.tag, old.externalId, id);
  };
  const g = change.upserted;
  if (g) {
    forget(g.id);
    index.upsert(leanGeofence(g));
    if (g.tag !== null && g.externalId !== null) tags.set(g.tag, g.externalId, g.id);
  }
  if (change.deletedId !== undefined) {
    forget(change.deletedId);
    index.remove(change.deletedId);
  }
}
