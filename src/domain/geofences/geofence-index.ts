import Flatbush from 'flatbush';
import RBush from 'rbush';
import { bboxAround } from '../../geo/bbox-around.js';
import { distanceMeters } from '../../geo/distance-meters.js';
import type { BBox } from '../../geo/types.js';
import type { Geofence } from './geofence.js';
import {
  distanceToGeofenceMeters,
  geofenceBBoxes,
  type PreparedGeofence,
  prepareGeofence,
} from './prepared-geofence.js';

interface OverlayItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  slot: number;
}

/** A search hit: meters from the query point to the fence (0 inside). */
export interface NearGeofence {
  geofence: PreparedGeofence;
  distanceMeters: number;
}

export interface NearOptions {
  /** At most this many hits. */
  limit: number;
  /** Applied before the limit; must be pure (it may be called more than once per fence). */
  filter?: (g: PreparedGeofence) => boolean;
}

// Below this many changed entries the overlay R-tree is cheap enough that a rebuild would not pay.
const MIN_CHURN_BEFORE_REBUILD = 4096;
// near() first searches this far and widens twofold, so dense areas stop long before the full radius.
const NEAR_FIRST_RADIUS_METERS = 250;
// Half the Earth's circumference: a larger radius reaches everywhere, and bboxAround wants a finite one.
const HALF_EARTH_METERS = 20_015_087;
const EMPTY_BOX: BBox = [0, 0, 0, 0];

/**
 * The geofences of one tenant (project + live) in a spatial index.
 *
 * Two trees: a static packed Hilbert R-tree (flatbush) built by `load` and by rebuilds, and a small
 * dynamic R-tree (rbush) for fences upserted since. Replaced or removed fences in the static tree are
 * tombstoned; once the overlay plus tombstones exceed a quarter of the index (at least 4096), both
 * are folded into a new static tree, so the amortised cost per upsert is O(log n).
 */
export class GeofenceIndex {
  // Slots [0, #baseSlots) are in #base; later slots are in #overlay. undefined = tombstone.
  #slots: (PreparedGeofence | undefined)[] = [];
  #ids = new Map<string, number>();
  #base: Flatbush | null = null;
  #extraBoxSlot = new Uint32Array(0);
  #baseSlots = 0;
  #tombstones = 0;
  #overlay = new RBush<OverlayItem>();
  #overlayItems = new Map<number, OverlayItem[]>();
  // Query stamps per slot: a fence with two boxes (antimeridian) must be returned once.
  #seen = new Uint32Array(0);
  #stamp = 0;

  /** Number of fences held. */
  get size(): number {
    return this.#ids.size;
  }

  /** Bulk upsert (of duplicate ids the last wins), then one static rebuild: O(n log n). */
  load(geofences: Geofence[]): void {
    if (this.#ids.size > 0) {
      for (const g of geofences) {
        this.#release(g.id);
        this.#slots.push(prepareGeofence(g));
        this.#ids.set(g.id, this.#slots.length - 1);
      }
    } else {
      // Into an empty index one Map write per fence is enough; at 1M fences each Map access is a
      // cache miss. Duplicates show as fewer ids than slots; the map then points at the last of each.
      const prepared = geofences.map(prepareGeofence);
      const ids = new Map<string, number>();
      for (let slot = 0; slot < prepared.length; slot++) ids.set(prepared[slot]!.geofence.id, slot);
      this.#ids = ids;
      this.#slots =
        ids.size < prepared.length
          ? prepared.map((pg, slot) => (ids.get(pg.geofence.id) === slot ? pg : undefined))
          : prepared;
    }
    this.#rebuild();
  }

  /** Inserts or replaces the fence with `g.id`; returns its prepared form. */
  upsert(g: Geofence): PreparedGeofence {
    const pg = prepareGeofence(g);
    const old = this.#ids.get(g.id);
    const slot = old !== undefined && old >= this.#baseSlots ? old : this.#slots.length;
    this.#release(g.id);
    this.#slots[slot] = pg;
    this.#ids.set(g.id, slot);
    const items = geofenceBBoxes(pg).map(([minX, minY, maxX, maxY]) => ({ minX, minY, maxX, maxY, slot }));
    for (const item of items) this.#overlay.insert(item);
    this.#overlayItems.set(slot, items);
    this.#maybeRebuild();
    return pg;
  }

  /** Removes the fence; returns whether it was held. */
  remove(id: string): boolean {
    if (!this.#release(id)) return false;
    this.#ids.delete(id);
    this.#maybeRebuild();
    return true;
  }

  /** The prepared fence with this id, if held. */
  get(id: string): PreparedGeofence | undefined {
    const slot = this.#ids.get(id);
    return slot === undefined ? undefined : this.#slots[slot];
  }

  /**
   * Fences whose bounding box, grown by `marginMeters`, holds `[lon, lat]` (degrees): a superset of
   * the fences containing the point, in no particular order. Pass the fix accuracy capped at 100 m.
   * Points on either side of the antimeridian find fences spanning it.
   */
  candidatesAt(lon: number, lat: number, marginMeters: number): PreparedGeofence[] {
    return this.#search(bboxAround([lon, lat], marginMeters > 0 ? Math.min(marginMeters, HALF_EARTH_METERS) : 0));
  }

  /**
   * Fences within `radiusMeters` of `[lon, lat]` (0 when inside, else to the boundary), sorted by
   * that distance, then by distance to `geometryCenter`, then id; `filter` applies before `limit`.
   * Includes disabled or expired fences unless `filter` excludes them.
   */
  near(lon: number, lat: number, radiusMeters: number, opts: NearOptions): NearGeofence[] {
    const limit = Math.floor(opts.limit);
    if (!(limit > 0) || !(radiusMeters >= 0)) return [];
    const radius = Math.min(radiusMeters, HALF_EARTH_METERS);
    for (let r = Math.min(radius, NEAR_FIRST_RADIUS_METERS); ; r = Math.min(radius, r * 2)) {
      const hits = this.#nearestWithin(lon, lat, r, limit, opts.filter);
      // Every fence within r was ranked, so once `limit` are found no farther fence can rank higher.
      if (hits.length >= limit || r >= radius) return hits;
    }
  }

  /**
   * The first `limit` fences within `r` in near()'s order, kept sorted by insertion: no sort of every
   * fence in the circle, and the distance to a center (the first tie-break) only measured for ties.
   */
  #nearestWithin(lon: number, lat: number, r: number, limit: number, filter: NearOptions['filter']) {
    const best: NearGeofence[] = [];
    // Meters from [lon, lat] to each kept fence's geometryCenter; NaN until a tie needs it.
    const centers: number[] = [];
    for (const pg of this.#search(bboxAround([lon, lat], r))) {
      if (filter && !filter(pg)) continue;
      const d = distanceToGeofenceMeters(pg, lon, lat);
      if (d > r) continue;
      if (best.length === limit && d > best[limit - 1]!.distanceMeters) continue;
      let center = Number.NaN;
      let i = best.length;
      for (; i > 0; i--) {
        const other = best[i - 1]!;
        if (d > other.distanceMeters) break;
        if (d === other.distanceMeters) {
          if (Number.isNaN(center)) center = centerMeters(pg, lon, lat);
          if (Number.isNaN(centers[i - 1]!)) centers[i - 1] = centerMeters(other.geofence, lon, lat);
          const byCenter = center - centers[i - 1]!;
          if (byCenter > 0 || (byCenter === 0 && compareIds(pg.geofence.id, other.geofence.geofence.id) > 0)) break;
        }
      }
      if (i === limit) continue;
      best.splice(i, 0, { geofence: pg, distanceMeters: d });
      centers.splice(i, 0, center);
      if (best.length > limit) {
        best.pop();
        centers.pop();
      }
    }
    return best;
  }

  // Hot path: no closures here, since tsx's keepNames would wrap each one per call.
  #search(boxes: BBox[]): PreparedGeofence[] {
    const out: PreparedGeofence[] = [];
    const first = boxes[0];
    // A fence's two boxes lie on opposite sides of the antimeridian, so one query box finds it twice
    // only when that box spans every longitude; skipping the stamps otherwise saves a cache miss per hit.
    const stamp = boxes.length > 1 || (first !== undefined && first[2] - first[0] >= 360) ? this.#nextStamp() : 0;
    for (const [minX, minY, maxX, maxY] of boxes) {
      if (this.#base !== null) {
        const hits = this.#base.search(minX, minY, maxX, maxY);
        const n = this.#baseSlots;
        for (let k = 0; k < hits.length; k++) {
          const i = hits[k]!;
          this.#take(i < n ? i : this.#extraBoxSlot[i - n]!, stamp, out);
        }
      }
      if (this.#overlayItems.size > 0) {
        for (const item of this.#overlay.search({ minX, minY, maxX, maxY })) this.#take(item.slot, stamp, out);
      }
    }
    return out;
  }

  #take(slot: number, stamp: number, out: PreparedGeofence[]): void {
    const pg = this.#slots[slot];
    if (pg === undefined) return;
    if (stamp !== 0) {
      if (this.#seen[slot] === stamp) return;
      this.#seen[slot] = stamp;
    }
    out.push(pg);
  }

  #nextStamp(): number {
    if (this.#seen.length < this.#slots.length) {
      this.#seen = new Uint32Array(Math.max(64, this.#slots.length * 2));
      this.#stamp = 0;
    }
    if (++this.#stamp === 0xffffffff) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
    return this.#stamp;
  }

  /** Empties the slot of `id` (tombstone in the static tree, deletion from the overlay). */
  #release(id: string): boolean {
    const slot = this.#ids.get(id);
    if (slot === undefined || this.#slots[slot] === undefined) return false;
    this.#slots[slot] = undefined;
    if (slot < this.#baseSlots) this.#tombstones++;
    for (const item of this.#overlayItems.get(slot) ?? []) this.#overlay.remove(item);
    this.#overlayItems.delete(slot);
    return true;
  }

  #maybeRebuild(): void {
    const churn = this.#tombstones + this.#slots.length - this.#baseSlots;
    if (churn > Math.max(MIN_CHURN_BEFORE_REBUILD, this.#ids.size >> 2)) this.#rebuild();
  }

  #rebuild(): void {
    const live = this.#slots.filter((pg): pg is PreparedGeofence => pg !== undefined);
    if (live.length !== this.#slots.length) this.#ids = new Map(live.map((pg, slot) => [pg.geofence.id, slot]));
    this.#slots = live;
    this.#baseSlots = live.length;
    this.#tombstones = 0;
    this.#overlay.clear();
    this.#overlayItems.clear();
    this.#seen = new Uint32Array(0);
    // Item i < n is the (first) box of slot i, so most hits need no mapping; the few second boxes
    // (antimeridian) follow, mapped through #extraBoxSlot.
    const n = live.length;
    const first = new Float64Array(n * 4);
    const extra: BBox[] = [];
    const extraSlot: number[] = [];
    for (let slot = 0; slot < n; slot++) {
      const boxes = geofenceBBoxes(live[slot]!);
      // A ringless polygon has no box but still needs item i: a point at (0, 0) only makes it a
      // harmless extra candidate there (it contains nothing), where an inverted box would upset the sort.
      first.set(boxes[0] ?? EMPTY_BOX, slot * 4);
      for (let b = 1; b < boxes.length; b++) {
        extra.push(boxes[b]!);
        extraSlot.push(slot);
      }
    }
    this.#extraBoxSlot = Uint32Array.from(extraSlot);
    this.#base = n > 0 ? new Flatbush(n + extra.length) : null;
    if (this.#base === null) return;
    for (let i = 0; i < n * 4; i += 4) this.#base.add(first[i]!, first[i + 1]!, first[i + 2]!, first[i + 3]!);
    for (const box of extra) this.#base.add(...box);
    this.#base.finish();
  }
}

function centerMeters(pg: PreparedGeofence, lon: number, lat: number): number {
  return distanceMeters(pg.geofence.geometryCenter, [lon, lat]);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
