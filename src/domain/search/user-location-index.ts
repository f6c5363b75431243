import RBush from 'rbush';
import { bboxAround } from '../../geo/bbox-around.js';
import { distanceMeters, EARTH_RADIUS_METERS, normalizeLongitude } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import type { Metadata } from '../metadata.js';

interface Item {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: string;
  location: Position;
  metadata: Metadata | null;
}

/** A node of rbush's tree, as `toJSON` exposes it. */
interface TreeNode {
  children: Array<TreeNode | Item>;
  leaf: boolean;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

interface Entry {
  /** Meters to the item when `exact`, else the least any point in the item's or node's box can be from the center. */
  d: number;
  item: Item | undefined;
  node: TreeNode | undefined;
  exact: boolean;
}

export interface NearUser {
  id: string;
  metadata: Metadata | null;
  distanceMeters: number;
}

// Half the Earth's circumference: every point is within it, and bboxAround wants a finite radius.
const HALF_EARTH_METERS = 20_015_087;

/**
 * The last known location of each user of one tenant, in a dynamic R-tree (rbush): users move on
 * every track, so the tree must take updates in O(log n), unlike the geofences' static tree.
 */
export class UserLocationIndex {
  private readonly tree = new RBush<Item>();
  private readonly items = new Map<string, Item>();

  get size(): number {
    return this.items.size;
  }

  load(users: ReadonlyArray<{ id: string; location: Position; metadata: Metadata | null }>): void {
    const items = users.map((u) => this.itemOf(u.id, u.location, u.metadata));
    for (const item of items) this.items.set(item.id, item);
    this.tree.load(items);
  }

  /** Places (or moves) user `id` at `[lon, lat]`. */
  upsert(id: string, location: Position, metadata: Metadata | null): void {
    const old = this.items.get(id);
    if (old && old.location[0] === location[0] && old.location[1] === location[1]) {
      old.metadata = metadata;
      return;
    }
    if (old) this.tree.remove(old);
    const item = this.itemOf(id, location, metadata);
    this.items.set(id, item);
    this.tree.insert(item);
  }

  remove(id: string): void {
    const old = this.items.get(id);
    if (!old) return;
    this.tree.remove(old);
    this.items.delete(id);
  }

  /**
   * Users within `radiusMeters` (great-circle) of `center` (`[lon, lat]`), boundary included, nearest
   * first (ties by id), keeping those `keep` accepts. Antimeridian-safe.
   */
  within(center: Position, radiusMeters: number, keep: (metadata: Metadata | null) => boolean): NearUser[] {
    return this.#within(center, radiusMeters, keep);
  }

  /**
   * The first `count` users of `within`, found best-first down the R-tree: nodes in order of the least
   * distance any point of their box can have, so a search measures the few users near the answer instead
   * of everyone within the radius.
   */
  nearest(
    center: Position,
    radiusMeters: number,
    count: number,
    keep: (metadata: Metadata | null) => boolean,
  ): NearUser[] {
    const out: NearUser[] = [];
    if (!(count > 0)) return out;
    const queue = new Queue();
    const lon = normalizeLongitude(center[0]);
    const lat = center[1];
    const cosLat = Math.cos(lat * RAD);
    let node: TreeNode | undefined = this.tree.toJSON() as TreeNode;
    while (node !== undefined) {
      if (node.leaf) {
        // Measured for real only when the bound comes out of the queue: most never do.
        for (const child of node.children) {
          const item = child as Item;
          const d = boxLowerBoundMeters(lon, lat, cosLat, item);
          if (d <= radiusMeters) queue.push({ d, item, node: undefined, exact: false });
        }
      } else {
        for (const child of node.children) {
          const box = child as TreeNode;
          const d = boxLowerBoundMeters(lon, lat, cosLat, box);
          if (d <= radiusMeters) queue.push({ d, item: undefined, node: box, exact: false });
        }
      }
      node = undefined;
      // Items come out by (distance, id); a node or unmeasured item that may be as near is opened first.
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        if (next.node !== undefined) {
          node = next.node;
          break;
        }
        const item = next.item!;
        if (!next.exact) {
          if (!keep(item.metadata)) continue;
          const d = distanceMeters(center, item.location);
          if (d <= radiusMeters) queue.push({ d, item, node: undefined, exact: true });
          continue;
        }
        out.push({ id: item.id, metadata: item.metadata, distanceMeters: next.d });
        if (out.length >= count) return out;
      }
    }
    return out;
  }

  #within(center: Position, radiusMeters: number, keep: (metadata: Metadata | null) => boolean): NearUser[] {
    const out: NearUser[] = [];
    const boxes = bboxAround(center, Math.min(radiusMeters, HALF_EARTH_METERS));
    // One box finds each user once; only the two halves of an antimeridian split can overlap.
    const seen = boxes.length > 1 ? new Set<string>() : null;
    for (const [minX, minY, maxX, maxY] of boxes) {
      for (const item of this.tree.search({ minX, minY, maxX, maxY })) {
        if (seen !== null) {
          if (seen.has(item.id)) continue;
          seen.add(item.id);
        }
        const d = distanceMeters(center, item.location);
        if (d <= radiusMeters && keep(item.metadata))
          out.push({ id: item.id, metadata: item.metadata, distanceMeters: d });
      }
    }
    return out.sort(byDistanceThenId);
  }

  private itemOf(id: string, location: Position, metadata: Metadata | null): Item {
    const [lon, lat] = location;
    return { minX: lon, minY: lat, maxX: lon, maxY: lat, id, location, metadata };
  }
}

function byDistanceThenId(a: NearUser, b: NearUser): number {
  return a.distanceMeters - b.distanceMeters || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const RAD = Math.PI / 180;

/**
 * Meters from the center (`lon` normalized, `cosLat` the cosine of `lat`) to the nearest point the box
 * could hold, never more than `distanceMeters` to any point in it: in the haversine sum the latitude term
 * is at least that of the latitude gap, and the longitude term at least that of the longitude gap (across
 * the antimeridian too) weighted by the smallest cosine of a latitude in the box. Cheap lower bounds stand
 * in for the trigonometry (sin x >= x - x³/6 for x >= 0, cos y >= 1 - y²/2, asin x >= x): nodes are
 * measured far more often than users.
 */
function boxLowerBoundMeters(lon: number, lat: number, cosLat: number, b: Box): number {
  const dLat = lat < b.minY ? b.minY - lat : lat > b.maxY ? lat - b.maxY : 0;
  const dLon = lon >= b.minX && lon <= b.maxX ? 0 : Math.min(arcDegrees(lon, b.minX), arcDegrees(lon, b.maxX));
  if (dLat === 0 && dLon === 0) return 0;
  const sinLat = sinAtLeast((dLat * RAD) / 2);
  const sinLon = sinAtLeast((dLon * RAD) / 2);
  const y = Math.max(Math.abs(b.minY), Math.abs(b.maxY)) * RAD;
  const cosFarthest = Math.max(0, 1 - (y * y) / 2);
  const h = sinLat * sinLat + cosLat * cosFarthest * sinLon * sinLon;
  // A hair less, so rounding can never put the bound above a user's own distance.
  return 2 * EARTH_RADIUS_METERS * Math.sqrt(Math.min(1, h)) * (1 - 1e-9);
}

/** A lower bound of sin(x) for x in [0, π/2], never negative. */
function sinAtLeast(x: number): number {
  return Math.max(0, x - (x * x * x) / 6);
}

/** Degrees between two longitudes the short way round, 0..180. */
function arcDegrees(a: number, b: number): number {
  let d = Math.abs(a - b);
  // Nearly always within half a turn: the float modulo is for the rest.
  if (d <= 180) return d;
  d %= 360;
  return d > 180 ? 360 - d : d;
}

/** Bounds (nodes, unmeasured items) before measured items at the same distance (they may be as near), then items by id. */
function before(a: Entry, b: Entry): boolean {
  if (a.d !== b.d) return a.d < b.d;
  if (!a.exact || !b.exact) return !a.exact && b.exact;
  return a.item!.id < b.item!.id;
}

/** A binary min-heap of entries in `before` order. */
class Queue {
  readonly #heap: Entry[] = [];

  push(e: Entry): void {
    const heap = this.#heap;
    let i = heap.length;
    heap.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(e, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = e;
  }

  pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
