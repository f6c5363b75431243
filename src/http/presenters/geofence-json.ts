import { LRUCache } from 'lru-cache';
import { type Geofence, isGeofenceEnabled } from '../../domain/geofences/geofence.js';
import { geofenceJson } from './geofence-presenter.js';

interface Printed {
  json: string;
  /** The `enabled` the text says: the only field that changes with time (at `disableAfter`). */
  enabled: boolean;
}

/**
 * The JSON text of `presentGeofence` per fence object, for reads that list the same fences over and over
 * (a tracked user's fences, search, context, the fences of searched users). Keyed by the object, not the
 * id: the indexes hold immutable fences and swap in a new object on every change, so an entry can never
 * outlive its fence's version, whichever process wrote, and needs no invalidation. The least recently
 * printed go first when full.
 */
export class GeofenceJson {
  readonly #printed: LRUCache<Geofence, Printed>;

  constructor(
    private readonly opts: { geometry: boolean },
    maxEntries = 100_000,
  ) {
    this.#printed = new LRUCache({ max: maxEntries });
  }

  /** `JSON.stringify(presentGeofence(g, now, opts))`. */
  of(g: Geofence, now: number): string {
    const enabled = isGeofenceEnabled(g, now);
    const kept = this.#printed.get(g);
    if (kept !== undefined && kept.enabled === enabled) return kept.json;
    // With the outline, polygonJson prints its doubles about 4.5 times faster than JSON.stringify: a
    // search of 10 fences that were not kept cost ~650 µs of CPU, most of it printing outlines.
    const json = geofenceJson(g, now, this.opts.geometry);
    this.#printed.set(g, { json, enabled });
    return json;
  }

  /** The fences as a JSON array. */
  list(fences: readonly Geofence[], now: number): string {
    let out = '[';
    for (let i = 0; i < fences.length; i++) out += (i === 0 ? '' : ',') + this.of(fences[i]!, now);
    return `${out}]`;
  }
}

let shared: GeofenceJson | undefined;

/**
 * The texts without geometry that the track, context and search routes print: one cache for all of
 * them, as they list the same fences (one per route held each text up to three times).
 */
export function sharedGeofenceJson(): GeofenceJson {
  shared ??= new GeofenceJson({ geometry: false });
  return shared;
}
