import Flatbush from 'flatbush';
import RBush from 'rbush';
import { bboxAround } from '../../geo/bbox-around.js';
import { distanceMeters, distanceMetersLonLat, METERS_PER_DEGREE } from '../../geo/distance-meters.js';
import { polygonContains } from '../../geo/polygon-contains.js';
import type { PreparedPolygon } from '../../geo/prepare-polygon.js';
import type { BBox } from '../../geo/types.js';
import type { Geofence } from './geofence.js';
import { type BuiltTree, buildTreeHere, type TreeBuilder, type TreeInput } from './packed-tree.js';
import {
  distanceToPolygonMeters,
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
// From this many fences a rebuild with a `buildTree` runs there: flatbush sorts 100,000 boxes in ~35 ms
// and 1,000,000 in ~300 ms, a stall of every request meanwhile; below it a build takes a few ms.
const BACKGROUND_BUILD_MIN_FENCES = 16_384;
// near() first searches this far and widens twofold, so dense areas stop long before the full radius.
const NEAR_FIRST_RADIUS_METERS = 250;
// Half the Earth's circumference: a larger radius reaches everywhere, and bboxAround wants a finite one.
const HALF_EARTH_METERS = 20_015_087;
const EMPTY_BOX: BBox = [0, 0, 0, 0];
const RAD = Math.PI / 180;

// Per slot, in #shape: what near() and containing() read of each candidate without following pointers.
// #kind: 0 = empty slot, CIRCLE (center lon, lat, radius meters), POLYGON (unwrapped extent minLon,
// minLat, maxLon, maxLat, then centerLon), at #shape[slot * SHAPE_STRIDE].
const CIRCLE = 1;
const POLYGON = 2;
const SHAPE_STRIDE = 5;
// A polygon's extent gives a lower bound of its distance; it only rules a fence out when it beats the
// bound by more than rounding could explain, so the hits never differ from measuring every fence.
const BOUND_SLACK_RATIO = 1 - 1e-6;
const BOUND_SLACK_METERS = 1e-6;

export interface IndexOptions {
  buildTree?: TreeBuilder;
  backgroundFrom?: number;
}

/**
 * The geofences of one tenant (project + live) in a spatial index.
 *
 * Two trees: a static packed Hilbert R-tree (flatbush) built by `load` and by rebuilds, and a small
 * dynamic R-tree (rbush) for fences upserted since. Replaced or removed fences in the static tree are
 * tombstoned; once the overlay plus tombstones exceed a quarter of the index (at least 4096), both
 * are folded into a new static tree, so the amortised cost per upsert is O(log n).
 *
 * A fence keeps its slot until it is replaced or removed, and a rebuild moves none: it only adds the
 * held slots' boxes to a new tree and frees the empty ones. Renumbering slots (and so rewriting the id
 * map) and measuring every fence again made a rebuild of 75,000 fences stall the event loop ~90 ms
 * while geofences were being written; now the tree's own sort is most of it. Given a `buildTree`, a
 * rebuild of a large index sorts on another thread (100,000 boxes: ~35 ms; 1,000,000: ~300 ms) while
 * this one keeps answering from the old tree and the overlay. Until the new tree is installed, the
 * slots it holds (#inNext) are not reused, and the overlay keeps what it had at the snapshot
 * (#snapped) apart from what came after (#overlay): taking the tree in drops the first whole.
 */
export class GeofenceIndex {
  // Slot -> fence; undefined = empty: a tombstone while a tree holds it (#inBase, #inNext), else free (in #free).
  // The prepared form a query answers with is made per hit from the fence, its polygon and its size
  // (#prepared): kept for every fence, it was one more object each for every major collection to mark.
  #fences: (Geofence | undefined)[] = [];
  #polygons: (PreparedPolygon | undefined)[] = [];
  #size = new Float64Array(0);
  #ids = new Map<string, number>();
  #free: number[] = [];
  #base: Flatbush | null = null;
  // Base tree item -> slot; null when item i is slot i (a tree built over slots without holes).
  #baseItemSlot: Uint32Array | null = null;
  // Per slot: non-zero while the base tree holds its boxes (so the slot is not reused until a rebuild).
  #inBase = new Uint8Array(0);
  // Per slot: non-zero while the tree being built holds its boxes (the same rule, for the next tree).
  #inNext: Uint8Array = new Uint8Array(0);
  // Emptied slots that a tree holds; those of the base at the snapshot, freed once the next tree is in.
  #tombstoneSlots: number[] = [];
  #freeOnInstall: number[] = [];
  readonly #buildTree: TreeBuilder | undefined;
  readonly #backgroundFrom: number;
  // Numbers each rebuild: a background build whose number is no longer current is dropped.
  #generation = 0;
  #building = false;
  // Per slot: its first box (minX, minY, maxX, maxY), for rebuilds; second boxes (antimeridian) by slot.
  #box: Float64Array = new Float64Array(0);
  #extraBoxes = new Map<number, BBox[]>();
  // The overlay's items by slot: upserted since the last snapshot, and before it (in the coming tree).
  #overlay = new Overlay();
  #snapped = new Overlay();
  // Query stamps per slot: a fence with two boxes (antimeridian) must be returned once.
  #seen = new Uint32Array(0);
  #stamp = 0;
  #kind = new Uint8Array(0);
  #shape = new Float64Array(0);
  // near()'s per-query scratch: candidates' distance bounds, and their indexes in visiting order.
  #bound = new Float64Array(64);
  #orderScratch = new Uint32Array(64);

  /** `buildTree`: where rebuilds of `backgroundFrom` fences or more sort their tree (default 16,384). */
  constructor({ buildTree, backgroundFrom = BACKGROUND_BUILD_MIN_FENCES }: IndexOptions = {}) {
    this.#buildTree = buildTree;
    this.#backgroundFrom = backgroundFrom;
  }

  /** Number of fences held. */
  get size(): number {
    return this.#ids.size;
  }

  /** Bulk upsert (of duplicate ids the last wins), then one static rebuild: O(n log n). */
  load(geofences: Geofence[]): void {
    this.loadPrepared(geofences.map(prepareGeofence));
  }

  /**
   * `load` of fences already prepared (`prepareGeofence`): a caller that reads fences in pages
   * prepares each page as it comes, between turns of the event loop, instead of all at once here.
   */
  loadPrepared(prepared: PreparedGeofence[]): void {
    if (this.#ids.size > 0) {
      for (const pg of prepared) this.#put(pg);
    } else {
      // Into an empty index one Map write per fence is enough; at 1M fences each Map access is a
      // cache miss. Duplicates show as fewer ids than slots; the map then points at the last of each.
      const ids = new Map<string, number>();
      for (let slot = 0; slot < prepared.length; slot++) ids.set(prepared[slot]!.geofence.id, slot);
      this.#ids = ids;
      const held =
        ids.size < prepared.length
          ? prepared.map((pg, slot) => (ids.get(pg.geofence.id) === slot ? pg : undefined))
          : prepared;
      this.#fences = new Array(held.length);
      this.#polygons = new Array(held.length);
      // Slots emptied before (all fences removed) start over with the rest of the per-slot state.
      this.#extraBoxes.clear();
      this.#overlay = new Overlay();
      this.#snapped = new Overlay();
      this.#tombstoneSlots = [];
      this.#freeOnInstall = [];
      this.#free = [];
      // Room for half as many again: a rebuild on the thread frees tombstones only once its tree is in,
      // and growing copies every per-slot array into fresh memory (~30 ms at 250,000 slots on a 2-core VM).
      this.#growTo(prepared.length + (prepared.length >> 1), { fresh: true });
      // Holes left by duplicate ids are in no tree: free now (pushed from the highest down, so the
      // lowest is popped first and the slots stay compact).
      if (ids.size < prepared.length) {
        for (let slot = prepared.length - 1; slot >= 0; slot--) if (held[slot] === undefined) this.#free.push(slot);
      }
      for (let slot = 0; slot < held.length; slot++) {
        const pg = held[slot];
        if (pg !== undefined) this.#fill(slot, pg, geofenceBBoxes(pg));
      }
    }
    this.#rebuild();
  }

  /** Inserts or replaces the fence with `g.id`; returns its prepared form. */
  upsert(g: Geofence): PreparedGeofence {
    const pg = prepareGeofence(g);
    const boxes = geofenceBBoxes(pg);
    const slot = this.#put(pg, boxes);
    const items = boxes.map(([minX, minY, maxX, maxY]) => ({ minX, minY, maxX, maxY, slot }));
    this.#overlay.add(slot, items);
    this.#maybeRebuild();
    return pg;
  }

  /** Holds `pg` in a slot of its own (the replaced fence's, when that is in no tree); returns it. */
  #put(pg: PreparedGeofence, boxes = geofenceBBoxes(pg)): number {
    this.#release(pg.geofence.id);
    const slot = this.#free.pop() ?? this.#fences.length;
    if (slot >= this.#kind.length) this.#growTo(Math.max(64, slot * 2));
    this.#fill(slot, pg, boxes);
    this.#ids.set(pg.geofence.id, slot);
    return slot;
  }

  /** Writes the fence into its slot: the fence, what its prepared form is made of, the flat copy queries read, and its boxes. */
  #fill(slot: number, pg: PreparedGeofence, boxes: BBox[]): void {
    this.#fences[slot] = pg.geofence;
    this.#polygons[slot] = pg.kind === 'polygon' ? pg.polygon : undefined;
    this.#size[slot] = pg.sizeMeters;
    this.#setShape(slot, pg);
    // A ringless polygon has no box but still gets one: a point at (0, 0) only makes it a harmless
    // extra candidate there (it contains nothing), where an inverted box would upset the tree's sort.
    this.#box.set(boxes[0] ?? EMPTY_BOX, slot * 4);
    if (boxes.length > 1) this.#extraBoxes.set(slot, boxes.slice(1));
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
    return slot === undefined || this.#fences[slot] === undefined ? undefined : this.#prepared(slot);
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
   * The fences containing `[lon, lat]` (degrees), boundary included: exactly those of `candidatesAt(lon,
   * lat, 0)` for which `containsPoint` holds, in no particular order. Circles are tested from the flat
   * per-slot copy of their center and radius, without reading the fence.
   */
  containing(lon: number, lat: number): PreparedGeofence[] {
    const out: PreparedGeofence[] = [];
    const slots = this.#slotsIn(bboxAround([lon, lat], 0));
    const kind = this.#kind;
    const shape = this.#shape;
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      const o = slot * SHAPE_STRIDE;
      if (kind[slot] === CIRCLE) {
        if (distanceMetersLonLat(shape[o]!, shape[o + 1]!, lon, lat) <= shape[o + 2]!) out.push(this.#prepared(slot));
      } else if (polygonContains(this.#polygons[slot]!, lon, lat)) out.push(this.#prepared(slot));
    }
    return out;
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
   * A fence is measured before `filter` reads it, and a polygon only when its extent could be close
   * enough: within `r`, and once `limit` are kept, no farther than the last of them. Fences ruled out
   * so are those the filter-first order would drop too, so the hits are the same.
   */
  #nearestWithin(lon: number, lat: number, r: number, limit: number, filter: NearOptions['filter']) {
    const best: NearGeofence[] = [];
    // Meters from [lon, lat] to each kept fence's geometryCenter; NaN until a tie needs it.
    const centers: number[] = [];
    const slots = this.#slotsIn(bboxAround([lon, lat], r));
    const n = slots.length;
    const kind = this.#kind;
    const shape = this.#shape;
    // A lower bound of each candidate's distance: exact for circles (cheap from the flat copy), the
    // extent's for polygons (polygonBoundaryDistanceMeters' projection: east scaled by cos(lat)).
    const bound = this.#boundScratch(n);
    const order = this.#orderScratch;
    const kx = METERS_PER_DEGREE * Math.cos(lat * RAD);
    for (let k = 0; k < n; k++) {
      const slot = slots[k]!;
      const o = slot * SHAPE_STRIDE;
      order[k] = k;
      if (kind[slot] === CIRCLE) {
        // distanceToGeofenceMeters of a circle, term for term.
        bound[k] = Math.max(0, -(shape[o + 2]! - distanceMetersLonLat(shape[o]!, shape[o + 1]!, lon, lat)));
      } else {
        const x0 = lon + 360 * Math.round((shape[o + 4]! - lon) / 360);
        const gx = Math.max(0, shape[o]! - x0, x0 - shape[o + 2]!) * kx;
        const gy = Math.max(0, shape[o + 1]! - lat, lat - shape[o + 3]!) * METERS_PER_DEGREE;
        const b = Math.sqrt(gx * gx + gy * gy) * BOUND_SLACK_RATIO - BOUND_SLACK_METERS;
        // A ringless polygon has no extent (NaN here): 0 bounds it and keeps the order sortable.
        bound[k] = Number.isNaN(b) ? 0 : b;
      }
    }
    // Nearest bound first: once `limit` are kept, the first bound beyond the last of them ends the
    // search. The ranking is a total order (ids break the last ties), so visiting order never changes it.
    sortByBound(order, bound, n);
    let worst = r;
    for (let j = 0; j < n; j++) {
      const k = order[j]!;
      if (bound[k]! > worst) break;
      const slot = slots[k]!;
      let d = bound[k]!;
      if (kind[slot] !== CIRCLE) {
        d = distanceToPolygonMeters(this.#polygons[slot]!, lon, lat);
        if (d > worst) continue;
      }
      const pg = this.#prepared(slot);
      if (filter && !filter(pg)) continue;
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
      if (best.length === limit) worst = best[limit - 1]!.distanceMeters;
    }
    return best;
  }

  #search(boxes: BBox[]): PreparedGeofence[] {
    const slots = this.#slotsIn(boxes);
    const out: PreparedGeofence[] = new Array(slots.length);
    for (let k = 0; k < slots.length; k++) out[k] = this.#prepared(slots[k]!);
    return out;
  }

  /** The held slot's fence prepared, as `prepareGeofence` would make it (the same shape of object). */
  #prepared(slot: number): PreparedGeofence {
    const geofence = this.#fences[slot]!;
    const sizeMeters = this.#size[slot]!;
    if (this.#kind[slot] === CIRCLE)
      return { kind: 'circle', geofence, center: geofence.geometryCenter, radiusMeters: sizeMeters, sizeMeters };
    return { kind: 'polygon', geofence, polygon: this.#polygons[slot]!, sizeMeters };
  }

  /** The held slots whose box meets one of `boxes`, each once. */
  // Hot path: no closures here, since tsx's keepNames would wrap each one per call.
  #slotsIn(boxes: BBox[]): number[] {
    const out: number[] = [];
    const first = boxes[0];
    // A fence's two boxes lie on opposite sides of the antimeridian, so one query box finds it twice
    // only when that box spans every longitude; skipping the stamps otherwise saves a cache miss per hit.
    const stamp = boxes.length > 1 || (first !== undefined && first[2] - first[0] >= 360) ? this.#nextStamp() : 0;
    for (const [minX, minY, maxX, maxY] of boxes) {
      if (this.#base !== null) {
        const hits = this.#base.search(minX, minY, maxX, maxY);
        const itemSlot = this.#baseItemSlot;
        if (itemSlot === null) for (let k = 0; k < hits.length; k++) this.#take(hits[k]!, stamp, out);
        else for (let k = 0; k < hits.length; k++) this.#take(itemSlot[hits[k]!]!, stamp, out);
      }
      this.#takeOverlay(this.#overlay, minX, minY, maxX, maxY, stamp, out);
      this.#takeOverlay(this.#snapped, minX, minY, maxX, maxY, stamp, out);
    }
    return out;
  }

  /** The held slots among `overlay`'s boxes meeting the box (the two overlays: since and before a snapshot). */
  #takeOverlay(
    overlay: Overlay,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    stamp: number,
    out: number[],
  ): void {
    if (overlay.size === 0) return;
    for (const item of overlay.tree.search({ minX, minY, maxX, maxY })) this.#take(item.slot, stamp, out);
  }

  #take(slot: number, stamp: number, out: number[]): void {
    if (this.#kind[slot] === 0) return;
    if (stamp !== 0) {
      if (this.#seen[slot] === stamp) return;
      this.#seen[slot] = stamp;
    }
    out.push(slot);
  }

  #boundScratch(n: number): Float64Array {
    if (this.#bound.length < n) {
      this.#bound = new Float64Array(n * 2);
      this.#orderScratch = new Uint32Array(n * 2);
    }
    return this.#bound;
  }

  /** Copies what near() and containing() read of the fence into the flat per-slot arrays. */
  #setShape(slot: number, pg: PreparedGeofence): void {
    const o = slot * SHAPE_STRIDE;
    if (pg.kind === 'circle') {
      this.#kind[slot] = CIRCLE;
      this.#shape[o] = pg.center[0];
      this.#shape[o + 1] = pg.center[1];
      this.#shape[o + 2] = pg.radiusMeters;
    } else {
      const p = pg.polygon;
      this.#kind[slot] = POLYGON;
      this.#shape[o] = p.minLon;
      this.#shape[o + 1] = p.minLat;
      this.#shape[o + 2] = p.maxLon;
      this.#shape[o + 3] = p.maxLat;
      this.#shape[o + 4] = p.centerLon;
    }
  }

  #nextStamp(): number {
    if (this.#seen.length < this.#fences.length) {
      this.#seen = new Uint32Array(Math.max(64, this.#fences.length * 2));
      this.#stamp = 0;
    }
    if (++this.#stamp === 0xffffffff) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
    return this.#stamp;
  }

  /** Room for `capacity` slots in the per-slot arrays; `fresh`: new arrays, nothing kept. */
  #growTo(capacity: number, { fresh = false } = {}): void {
    if (!fresh && capacity <= this.#kind.length) return;
    const grown = <T extends Uint8Array | Float64Array>(old: T, next: T): T => {
      if (!fresh) next.set(old);
      return next;
    };
    this.#kind = grown(this.#kind, new Uint8Array(capacity));
    this.#inBase = grown(this.#inBase, new Uint8Array(capacity));
    // Shared with a tree builder's thread, which reads them in place (see #snapshot).
    this.#inNext = grown(this.#inNext, new Uint8Array(new SharedArrayBuffer(capacity)));
    this.#shape = grown(this.#shape, new Float64Array(capacity * SHAPE_STRIDE));
    this.#size = grown(this.#size, new Float64Array(capacity));
    this.#box = grown(this.#box, new Float64Array(new SharedArrayBuffer(capacity * 4 * 8)));
  }

  /** Empties the slot of `id`: a tombstone while a tree (the base or the one being built) holds it, else free at once. */
  #release(id: string): boolean {
    const slot = this.#ids.get(id);
    if (slot === undefined || this.#fences[slot] === undefined) return false;
    this.#fences[slot] = undefined;
    this.#polygons[slot] = undefined;
    this.#kind[slot] = 0;
    this.#extraBoxes.delete(slot);
    if (!this.#overlay.delete(slot)) this.#snapped.delete(slot);
    if (this.#inBase[slot] !== 0 || this.#inNext[slot] !== 0) this.#tombstoneSlots.push(slot);
    else this.#free.push(slot);
    return true;
  }

  #maybeRebuild(): void {
    if (this.#building) return;
    const churn = this.#tombstoneSlots.length + this.#overlay.size;
    if (churn <= Math.max(MIN_CHURN_BEFORE_REBUILD, this.#ids.size >> 2)) return;
    if (this.#buildTree !== undefined && this.#ids.size >= this.#backgroundFrom) this.#rebuildInBackground();
    else this.#rebuild();
  }

  #rebuild(): void {
    const input = this.#snapshot();
    this.#install(buildTreeHere(input), input);
  }

  /** Sorts the next tree on the builder's thread; until it comes, queries read the old one and the overlay. */
  #rebuildInBackground(): void {
    const input = this.#snapshot();
    const generation = this.#generation;
    this.#building = true;
    this.#buildTree!(input).then(
      (built) => {
        if (generation !== this.#generation) return;
        this.#building = false;
        this.#install(built, input);
        this.#maybeRebuild();
      },
      () => {
        // The builder failed (its thread died, say): build here, as without one.
        if (generation !== this.#generation) return;
        this.#rebuild();
      },
    );
  }

  /**
   * The next tree's input, from the slots held now, marked #inNext. A build still in flight is
   * dropped: its tree never comes, so the slots it would have freed wait for this one.
   *
   * The input is #inNext and #box themselves, not copies: a copy of 100,000 slots' boxes cost the
   * event loop ~20 ms, nearly all of it page faults on the fresh memory. Both stay as they are for
   * the marked slots until the tree is installed (a marked slot is not reused before; #growTo moves
   * writes to new arrays), so the builder reads them safely on its thread.
   */
  #snapshot(): TreeInput {
    this.#generation++;
    this.#building = false;
    const n = this.#fences.length;
    this.#inNext.fill(0);
    this.#inNext.set(this.#kind.subarray(0, n));
    const extra: number[] = [];
    for (const [slot, boxes] of this.#extraBoxes) for (const b of boxes) extra.push(slot, b[0], b[1], b[2], b[3]);
    // Tombstones now are not held, so the next tree leaves them out: free once it is in.
    this.#freeOnInstall =
      this.#freeOnInstall.length > 0 ? this.#freeOnInstall.concat(this.#tombstoneSlots) : this.#tombstoneSlots;
    this.#tombstoneSlots = [];
    if (this.#snapped.size === 0) this.#snapped = this.#overlay;
    else this.#snapped.addAll(this.#overlay);
    this.#overlay = new Overlay();
    return { boxes: this.#box.subarray(0, n * 4), held: this.#inNext.subarray(0, n), extra: Float64Array.from(extra) };
  }

  /**
   * Makes the tree built from the last snapshot (`input`) the base. Its slots emptied since stay
   * tombstones, the old base's tombstones are freed, and the overlay keeps only what was upserted
   * after the snapshot.
   */
  #install(built: BuiltTree | null, input: TreeInput): void {
    this.#inBase.set(this.#inNext);
    this.#inNext.fill(0);
    // Unsorted: sorting 125,000 freed slots (a rebuild of 1,000,000 fences) cost ~30 ms.
    if (this.#freeOnInstall.length > 0) this.#free = this.#free.concat(this.#freeOnInstall);
    this.#freeOnInstall = [];
    this.#snapped = new Overlay();
    this.#base = built === null ? null : Flatbush.from(built.data);
    // Item i is slot i when no slot was empty and no fence had a second box: queries then skip the lookup.
    const identity = built !== null && input.extra.length === 0 && built.itemSlot.length === input.held.length;
    this.#baseItemSlot = built === null || identity ? null : built.itemSlot;
  }
}

/** Boxes of fences upserted since a snapshot, in a dynamic R-tree, by slot. */
class Overlay {
  readonly tree = new RBush<OverlayItem>();
  readonly #bySlot = new Map<number, OverlayItem[]>();

  /** Slots held. */
  get size(): number {
    return this.#bySlot.size;
  }

  add(slot: number, items: OverlayItem[]): void {
    for (const item of items) this.tree.insert(item);
    this.#bySlot.set(slot, items);
  }

  /** Everything `other` holds, added one by one (a build dropped before its tree came: rare). */
  addAll(other: Overlay): void {
    for (const [slot, items] of other.#bySlot) this.add(slot, items);
  }

  /** Removes the slot's boxes; false when it held none. */
  delete(slot: number): boolean {
    const items = this.#bySlot.get(slot);
    if (items === undefined) return false;
    for (const item of items) this.tree.remove(item);
    this.#bySlot.delete(slot);
    return true;
  }
}

/** Sorts `order[0..n)` by `bound[order[i]]`, ascending: insertion sort for the usual few dozen. */
function sortByBound(order: Uint32Array, bound: Float64Array, n: number): void {
  if (n > 48) {
    order.subarray(0, n).sort((a, b) => bound[a]! - bound[b]!);
    return;
  }
  for (let i = 1; i < n; i++) {
    const k = order[i]!;
    const b = bound[k]!;
    let j = i - 1;
    while (j >= 0 && bound[order[j]!]! > b) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = k;
  }
}

function centerMeters(pg: PreparedGeofence, lon: number, lat: number): number {
  return distanceMeters(pg.geofence.geometryCenter, [lon, lat]);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
