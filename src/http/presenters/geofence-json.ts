import { setBounded } from '../../cache/bounded-map.js';
import { flat } from '../../cache/flat-string.js';
import { type Geofence, isGeofenceEnabled } from '../../domain/geofences/geofence.js';
import { geofenceJson } from './geofence-presenter.js';

/**
 * The JSON text of `presentGeofence` per fence object, for reads that list the same fences over and over
 * (search, context, the fences of searched users). Keyed by the object, not the id: the indexes hold
 * immutable fences and swap in a new object on every change, so an entry can never outlive its fence's
 * version, whichever process wrote, and needs no invalidation. The oldest entry goes first when full.
 */
export class GeofenceJson {
  // By `enabled` as the text has it, the only field that changes with time (at `disableAfter`). Two
  // maps of strings rather than one of {text, enabled}: an object less per fence for the collector.
  readonly #enabled = new Map<Geofence, string>();
  readonly #disabled = new Map<Geofence, string>();

  constructor(
    private readonly opts: { geometry: boolean },
    private readonly maxEntries = 100_000,
  ) {}

  /** `JSON.stringify(presentGeofence(g, now, opts))`. */
  of(g: Geofence, now: number): string {
    const entries = isGeofenceEnabled(g, now) ? this.#enabled : this.#disabled;
    const kept = entries.get(g);
    if (kept !== undefined) return kept;
    // With the outline, polygonJson prints its doubles about 4.5 times faster than JSON.stringify: a
    // search of 10 fences that were not kept cost ~650 µs of CPU, most of it printing outlines.
    // Kept contiguous: a kept rope is walked piece by piece in every response it goes into (flat-string.ts).
    const json = flat(geofenceJson(g, now, this.opts.geometry));
    setBounded(entries, g, json, this.maxEntries);
    return json;
  }

  /** The fences as a JSON array. */
  list(fences: readonly Geofence[], now: number): string {
    let out = '[';
    for (let i = 0; i < fences.length; i++) out += (i === 0 ? '' : ',') + this.of(fences[i]!, now);
    return `${out}]`;
  }
}
