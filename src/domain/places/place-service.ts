import { LRUCache } from 'lru-cache';
import type { Position } from '../../geo/types.js';
import type { PackSource } from '../../geodata/live-pack.js';
import { CATEGORY_GROUPS } from '../../geodata/osm/places/categories.js';
import type { PlaceLayer } from '../../geodata/osm/places/place-layer.js';
import type { Metadata } from '../metadata.js';
import { matchesMetadata } from '../search/matches-metadata.js';
import type { PlaceSettings } from '../settings/place-settings.js';
import { resolveChainSlugs } from './chain-slugs.js';
import type { Place } from './place.js';
import { passesPlaceFilters, withProjectChainFields } from './place-settings-view.js';

export interface PlaceSearchQuery {
  near: Position;
  radiusMeters: number;
  chains?: string[];
  categories?: string[];
  groups?: string[];
  /** Only places whose chain's project metadata has these values. */
  chainMetadata?: Metadata;
  /** Only places in these countries (ISO 3166-1 alpha-2, upper case), by the country polygon at the place. */
  countries?: string[];
  limit: number;
}

/** A place near a point: `distance` meters (0 inside its footprint), `inside` when within its outline. */
export interface PlaceCandidate {
  place: Place;
  distance: number;
  inside: boolean;
  /** Whether the place has an outline (building or area), so "inside" could be known. */
  hasFootprint: boolean;
  /** Square meters of the outline; 0 for a point place. */
  areaSquareMeters: number;
}

/**
 * Outlines larger than this (3 ha: bigger than a big-box store) are broad places, such as parks,
 * campuses, malls and golf courses: being inside one says less than being near a shop within it.
 */
export const BROAD_AREA_SQUARE_METERS = 30_000;

/**
 * How telling a candidate is: 0 inside a building-sized outline, 1 near a place (a point place or an
 * outline's edge within reach), 2 inside a broad area. Lower wins; the tracker also switches places
 * when a candidate of a lower tier than the current place's appears.
 */
export function candidateTier(c: PlaceCandidate): 0 | 1 | 2 {
  if (!c.inside) return 1;
  return c.areaSquareMeters <= BROAD_AREA_SQUARE_METERS ? 0 : 2;
}

/** How far from a point place a fix may be and still count as at it, before accuracy is added. */
export const POINT_PLACE_METERS = 30;
/** The most a fix's accuracy widens that reach (a 2 km cell fix must not put the user in every shop). */
export const MAX_ACCURACY_REACH_METERS = 70;
/** How far outside a footprint a fix may be and count as at the place, before accuracy is added. */
export const FOOTPRINT_MARGIN_METERS = 10;
export const MAX_FOOTPRINT_ACCURACY_METERS = 40;

/** Places of the imported OpenStreetMap regions: search by chain and category, and what is at a point. */
export class PlaceService {
  /**
   * Each place's country code ('' for none), by its position, as the country filter found it: a lookup
   * costs a few polygon and ZIP searches, and a dense search area asks for thousands.
   */
  readonly #countries = new LRUCache<string, string>({ max: 200_000 });

  constructor(private readonly packs: PackSource) {}

  /** Whether any imported region has places (else search answers empty and track sets no place). */
  available(): boolean {
    return this.layers().length > 0;
  }

  /**
   * Places within `radiusMeters` of `near` that match any of the chains, categories or groups given (a
   * group stands for its categories) and, with `chainMetadata`, whose chain's project metadata matches.
   * Nearest first; chains carry the project's externalId and metadata.
   */
  search(settings: PlaceSettings, q: PlaceSearchQuery): Array<{ place: Place; distance: number }> {
    const categories = new Set(q.categories ?? []);
    for (const g of q.groups ?? []) for (const c of CATEGORY_GROUPS[g] ?? []) categories.add(c);
    const countries = q.countries?.length ? new Set(q.countries) : null;
    const pack = this.packs.current();
    const [lon, lat] = q.near;
    const hits: Array<{ place: Place; distance: number }> = [];
    for (const layer of this.layers()) {
      const chains = resolveChainSlugs(layer, q.chains ?? []);
      const keep = (i: number) => {
        const r = layer.record(i);
        const wanted = (r.chain && chains.has(r.chain.slug)) || r.categories.some((c) => categories.has(c));
        if (!wanted) return false;
        if (
          q.chainMetadata &&
          !(r.chain && matchesMetadata(settings.chainMetadata[r.chain.slug] ?? null, q.chainMetadata))
        )
          return false;
        // Asked last, for the few places the other filters kept: a polygon lookup per place. A region's
        // extract may reach over a border (Imperial County's takes in some of Mexicali).
        if (!countries || !pack) return !countries;
        // By position and the countries' build: a re-import may move a place, a new world pack a border.
        const key = `${pack.manifest.world.builtAt}:${r.lon},${r.lat}`;
        let code = this.#countries.get(key);
        if (code === undefined) {
          code = pack.regionsAt(r.lon, r.lat).country?.code ?? '';
          this.#countries.set(key, code);
        }
        return countries.has(code);
      };
      for (const n of layer.nearby(lon, lat, q.radiusMeters, q.limit, keep)) {
        hits.push({ place: toPlace(layer, n.index, settings), distance: n.distance });
      }
    }
    hits.sort((a, b) => a.distance - b.distance || (a.place.id < b.place.id ? -1 : 1));
    return hits.slice(0, q.limit);
  }

  /**
   * Every place within `radiusMeters` of `near` that the project's place filters let through (all when
   * it set none), nearest first, at most `limit`: what a device may detect on its own (iOS region sync).
   */
  near(
    settings: PlaceSettings,
    near: Position,
    radiusMeters: number,
    limit: number,
  ): Array<{ place: Place; distance: number }> {
    const [lon, lat] = near;
    const hits: Array<{ place: Place; distance: number }> = [];
    for (const layer of this.layers()) {
      const keep = (i: number) => passesPlaceFilters(layer.record(i), settings.placeFilters);
      for (const n of layer.nearby(lon, lat, radiusMeters, limit, keep)) {
        hits.push({ place: toPlace(layer, n.index, settings), distance: n.distance });
      }
    }
    hits.sort((a, b) => a.distance - b.distance || (a.place.id < b.place.id ? -1 : 1));
    return hits.slice(0, limit);
  }

  /**
   * The places a fix at `location` with `accuracyMeters` could be at, best first: building-sized
   * outlines that contain it (smallest first), then outlines within a few meters of their edge and
   * point places within {@link POINT_PLACE_METERS}, both widened by the accuracy (capped), nearest
   * first, then broad areas that contain it (see {@link candidateTier}).
   */
  candidatesAt(location: Position, accuracyMeters: number, settings: PlaceSettings): PlaceCandidate[] {
    const [lon, lat] = location;
    const accuracy = Number.isFinite(accuracyMeters) && accuracyMeters > 0 ? accuracyMeters : 0;
    const pointReach = POINT_PLACE_METERS + Math.min(accuracy, MAX_ACCURACY_REACH_METERS);
    const edgeReach = FOOTPRINT_MARGIN_METERS + Math.min(accuracy, MAX_FOOTPRINT_ACCURACY_METERS);
    const out: PlaceCandidate[] = [];
    for (const layer of this.layers()) {
      const seen = new Set<number>();
      for (const i of layer.containing(lon, lat)) {
        seen.add(i);
        const area = layer.areaSquareMeters(i);
        out.push({
          place: toPlace(layer, i, settings),
          distance: 0,
          inside: true,
          hasFootprint: true,
          areaSquareMeters: area,
        });
      }
      for (const n of layer.nearby(lon, lat, pointReach, 20)) {
        if (seen.has(n.index)) continue;
        const footprint = layer.hasFootprint(n.index);
        const distance = footprint ? layer.distanceTo(n.index, lon, lat) : n.distance;
        if (footprint ? distance > edgeReach : distance > pointReach) continue;
        out.push({
          place: toPlace(layer, n.index, settings),
          distance,
          inside: false,
          hasFootprint: footprint,
          areaSquareMeters: layer.areaSquareMeters(n.index),
        });
      }
    }
    return out.sort(
      (a, b) =>
        candidateTier(a) - candidateTier(b) ||
        a.distance - b.distance ||
        a.areaSquareMeters - b.areaSquareMeters ||
        labelDistance(a, location) - labelDistance(b, location) ||
        (a.place.id < b.place.id ? -1 : 1),
    );
  }

  /** Meters from a point to a place by id (0 inside its footprint); null when no region has it now. */
  distanceTo(id: string, location: Position): number | null {
    for (const layer of this.layers()) {
      const i = layer.indexOf(id);
      if (i >= 0) return layer.distanceTo(i, location[0], location[1]);
    }
    return null;
  }

  private layers(): PlaceLayer[] {
    const pack = this.packs.current();
    const out: PlaceLayer[] = [];
    for (const region of pack?.osmRegions ?? []) if (region.places && region.places.count > 0) out.push(region.places);
    return out;
  }
}

function toPlace(layer: PlaceLayer, i: number, settings: PlaceSettings): Place {
  const r = layer.record(i);
  const place: Place = { id: r.id, name: r.name, categories: r.categories, location: [r.lon, r.lat] };
  if (r.chain) place.chain = withProjectChainFields(r.chain, settings);
  return place;
}

function labelDistance(c: PlaceCandidate, [lon, lat]: Position): number {
  const [x, y] = c.place.location;
  return (x - lon) ** 2 + (y - lat) ** 2;
}
