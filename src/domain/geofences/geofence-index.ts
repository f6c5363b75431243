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
// near() first searches this far and widens fourfold, so dense areas stop long before the full radius.
const NEAR_FIRST_RADIUS_METERS = 250;
// Half the Earth's circumference: a larger radius reaches everywhere, and bboxAround wants a finite one.
const HALF_EARTH_METERS = 20_015_087;

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
  #baseBoxSlot = new Uint32Array(0);
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

  /** Bulk upsert (later duplicates win), then one static rebuild: O(n log n). */
  load(geofences: Geofence[]): void {
    for (const g of geofences) {
      this.#release(g.id);
      this.#slots.push(prepareGeofence(g));
      this.#ids.set(g.id, this.#slots.length - 1);
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
    for (let r = Math.min(radius, NEAR_FIRST_RADIUS_METERS); ; r = Math.min(radius, r * 4)) {
      const hits = this.#within(lon, lat, r, opts.filter);
      // Every fence within r is in hits, so once there are `limit` of them no farther fence can rank higher.
      if (hits.length >= limit || r >= radius) {
        return hits.slice(0, limit).map(({ geofence, distanceMeters }) => ({ geofence, distanceMeters }));
      }
    }
  }

  #within(lon: number, lat: number, r: number, filter: NearOptions['filter']) {
    const hits: Array<NearGeofence & { centerMeters: number }> = [];
    for (const pg of this.#search(bboxAround([lon, lat], r))) {
      if (filter && !filter(pg)) continue;
      const d = distanceToGeofenceMeters(pg, lon, lat);
      if (d > r) continue;
      hits.push({
        geofence: pg,
        distanceMeters: d,
        centerMeters: distanceMeters(pg.geofence.geometryCenter, [lon, lat]),
      });
    }
    return hits.sort(
      (a, b) =>
        a.distanceMeters - b.distanceMeters ||
        a.centerMeters - b.centerMeters ||
        compareIds(a.geofence.geofence.id, b.geofence.geofence.id),
    );
  }

  #search(boxes: BBox[]): PreparedGeofence[] {
    const out: PreparedGeofence[] = [];
    const stamp = this.#nextStamp();
    const take = (slot: number) => {
      const pg = this.#slots[slot];
      if (pg === undefined || this.#seen[slot] === stamp) return;
      this.#seen[slot] = stamp;
      out.push(pg);
    };
    for (const [minX, minY, maxX, maxY] of boxes) {
      if (this.#base) for (const i of this.#base.search(minX, minY, maxX, maxY)) take(this.#baseBoxSlot[i]!);
      if (this.#overlayItems.size > 0)
        for (const item of this.#overlay.search({ minX, minY, maxX, maxY })) take(item.slot);
    }
    return out;
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
    const boxes = live.map(geofenceBBoxes);
    const boxCount = boxes.reduce((n, b) => n + b.length, 0);
    this.#slots = live;
    this.#ids = new Map(live.map((pg, slot) => [pg.geofence.id, slot]));
    this.#baseSlots = live.length;
    this.#tombstones = 0;
    this.#overlay.clear();
    this.#overlayItems.clear();
    this.#seen = new Uint32Array(0);
    this.#baseBoxSlot = new Uint32Array(boxCount);
    this.#base = boxCount > 0 ? new Flatbush(boxCount) : null;
    boxes.forEach((bs, slot) => {
      for (const [minX, minY, maxX, maxY] of bs) this.#baseBoxSlot[this.#base!.add(minX, minY, maxX, maxY)] = slot;
    });
    this.#base?.finish();
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
