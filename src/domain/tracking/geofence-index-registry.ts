import type { GeofenceListQuery, StoreChange } from '../../storage/store.js';
import type { Geofence } from '../geofences/geofence.js';
import { GeofenceIndex } from '../geofences/geofence-index.js';
import type { Page } from '../pagination.js';
import type { Tenant } from '../tenant.js';
import { leanGeofence } from './lean-geofence.js';

/** Where fences come from: the store's newest-first pages. */
export interface GeofenceSource {
  list(tenant: Tenant, query: GeofenceListQuery): Promise<Page<Geofence>>;
  get(tenant: Tenant, id: string): Promise<Geofence | null>;
}

// Fences read per store query while loading: bounds the memory of parsed documents in flight.
const LOAD_PAGE = 5000;
// See `reloadSoon`.
const RELOAD_QUIET_MS = 300;
const RELOAD_MAX_WAIT_MS = 3000;

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
}

/**
 * One `GeofenceIndex` per tenant, loaded from the store on first use and kept in step with writes:
 * this process's writes arrive through `apply` (wired to `GeofenceService.onChange`), other processes'
 * through `storeChanged` (wired to `Store.onExternalChange`), which reloads in the background while
 * the old index keeps serving.
 */
export class GeofenceIndexRegistry {
  private readonly entries = new Map<string, Entry>();
  private refreshes: Promise<void> = Promise.resolve();

  /**
   * `syncExternalChanges` (the store's) is called before a tenant's first load: other processes'
   * commits made so far are then in that load, and not reported again afterwards by a poll that fell
   * behind while the load kept the event loop busy (which would load all the tenant's fences twice).
   */
  constructor(
    private readonly source: GeofenceSource,
    private readonly syncExternalChanges: () => void = () => {},
  ) {}

  /** The tenant's index, loading it on first use. */
  get(tenant: Tenant): GeofenceIndex | Promise<GeofenceIndex> {
    let entry = this.entries.get(keyOf(tenant));
    if (!entry) {
      this.syncExternalChanges();
      entry = { tenant, index: null, loading: null, pending: [] };
      this.entries.set(keyOf(tenant), entry);
      this.reload(entry);
    }
    return entry.index ?? entry.loading!;
  }

  /** Applies a write made through this process. Tenants not loaded yet are left alone. */
  apply(tenant: Tenant, change: GeofenceChange): void {
    const entry = this.entries.get(keyOf(tenant));
    if (!entry) return;
    if (entry.index) applyChange(entry.index, change);
    if (entry.loading) entry.pending.push(change);
  }

  /**
   * Another process wrote. A change that names one fence of a loaded tenant is applied alone (read
   * back from the store: present means upserted, absent means deleted); anything vaguer reloads the
   * tenants it may have touched.
   */
  storeChanged(change: StoreChange): void {
    if (change.kind !== 'unknown' && change.kind !== 'geofences') return;
    const { tenant, id } = change;
    if (tenant && id !== undefined) {
      const entry = this.entries.get(keyOf(tenant));
      if (!entry) return;
      // One read at a time, in notification order, so a quick upsert-then-delete ends deleted.
      this.refreshes = this.refreshes
        .then(() => this.source.get(tenant, id))
        .then(
          (g) => this.apply(tenant, g ? { upserted: g } : { deletedId: id }),
          () => this.reload(entry),
        );
      return;
    }
    for (const entry of this.entries.values()) {
      if (!change.tenant || keyOf(change.tenant) === keyOf(entry.tenant)) this.reloadSoon(entry);
    }
  }

  /**
   * Reloads once other processes' writes pause for RELOAD_QUIET_MS (at most RELOAD_MAX_WAIT_MS after
   * the first): a bulk import of many commits then costs one reload, not one per commit, each of
   * which keeps a SQLite server's event loop busy for as long as it reads every fence. The index in
   * service meanwhile still takes this process's own writes.
   */
  private reloadSoon(entry: Entry): void {
    const now = Date.now();
    entry.staleSince ??= now;
    if (entry.reloadTimer) clearTimeout(entry.reloadTimer);
    const wait = Math.min(RELOAD_QUIET_MS, Math.max(0, entry.staleSince + RELOAD_MAX_WAIT_MS - now));
    entry.reloadTimer = setTimeout(() => {
      entry.reloadTimer = undefined;
      entry.staleSince = undefined;
      if (this.entries.get(keyOf(entry.tenant)) === entry) this.reload(entry);
    }, wait);
    entry.reloadTimer.unref();
  }

  /** Every fence of the tenant, lean, page by page (fences past deleteAfter included: detection skips them). */
  private async loadAll(tenant: Tenant): Promise<Geofence[]> {
    const out: Geofence[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await this.source.list(tenant, {
        limit: LOAD_PAGE,
        now: 0,
        ...(before !== undefined ? { before } : {}),
      });
      for (const g of page.items) out.push(leanGeofence(g));
      const last = page.items[page.items.length - 1];
      if (!page.hasMore || !last) return out;
      before = last.createdAt;
    }
  }

  private reload(entry: Entry): void {
    entry.pending = [];
    const load = this.loadAll(entry.tenant).then((fences) => {
      const index = new GeofenceIndex();
      index.load(fences);
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
        // The callers awaiting `load` see the error; the next call retries.
        if (entry.loading !== load) return;
        entry.loading = null;
        if (!entry.index) this.entries.delete(keyOf(entry.tenant));
      },
    );
  }
}

function applyChange(index: GeofenceIndex, change: GeofenceChange): void {
  if (change.upserted) index.upsert(leanGeofence(change.upserted));
  if (change.deletedId !== undefined) index.remove(change.deletedId);
}

function keyOf(t: Tenant): string {
  return `${t.projectId}:${t.live ? 1 : 0}`;
}
