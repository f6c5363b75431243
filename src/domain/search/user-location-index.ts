import RBush from 'rbush';
import { bboxAround } from '../../geo/bbox-around.js';
import { distanceMeters } from '../../geo/distance-meters.js';
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

export interface NearUser {
  id: string;
  metadata: Metadata | null;
  distanceMeters: number;
}

// Half the Earth's circumference: every point is within it, and bboxAround wants a finite radius.
const HALF_EARTH_METERS = 20_015_087;
// nearest() first searches this far: in a city a few users are this close.
const FIRST_RADIUS_METERS = 250;

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
   * The first `count` users of `within`: searches a small circle first and widens it twofold, so in a
   * dense area a search stops long before it has measured and sorted everyone within the radius.
   */
  nearest(
    center: Position,
    radiusMeters: number,
    count: number,
    keep: (metadata: Metadata | null) => boolean,
  ): NearUser[] {
    const radius = Math.min(radiusMeters, HALF_EARTH_METERS);
    for (let r = Math.min(radius, FIRST_RADIUS_METERS); ; r = Math.min(radius, r * 2)) {
      // Everyone within r is in hits, so once there are `count` of them nobody farther can rank higher.
      const hits = this.#within(center, r >= radius ? radiusMeters : r, keep);
      if (hits.length >= count || r >= radius) return hits.length > count ? hits.slice(0, count) : hits;
    }
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
