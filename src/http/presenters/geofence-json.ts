import { takeOldest } from '../../cache/bounded-map.js';
import { TextRing } from '../../cache/text-ring.js';
import { type Geofence, isGeofenceEnabled } from '../../domain/geofences/geofence.js';
import { geofenceJson } from './geofence-presenter.js';

/**
 * The JSON text of `presentGeofence` per fence object, for reads that list the same fences over and over
 * (a tracked user's fences, search, context, the fences of searched users). Keyed by the object, not the
 * id: the indexes hold immutable fences and swap in a new object on every change, so an entry can never
 * outlive its fence's version, whichever process wrote, and needs no invalidation. The oldest entry goes
 * first when full.
 *
 * The texts are kept off the heap, in a `TextRing` (a read makes a short-lived string): as strings they
 * were half the heap of a 100,000-fence tenant's index with its caches (76 → 149 MB with these and the
 * event snapshots, a full collection 110 → 156 ms), and at 1,000,000 fences, where the cache never
 * fills, a third of what a track left past a scavenge (2026-11-30, `BENCH_ALLOC=1`). A text the ring
 * has written over since is printed again.
 */
export class GeofenceJson {
  /**
   * Per fence, its text's ring handle times two plus 1 when the text says `enabled` (the only field
   * that changes with time, at `disableAfter`): a number, no object per fence for the collector.
   */
  readonly #kept = new Map<Geofence, number>();
  readonly #texts: TextRing;

  constructor(
    private readonly opts: { geometry: boolean },
    private readonly maxEntries = 100_000,
  ) {
    // Room for texts of a fence's usual length (an outline makes it several times longer); a ring that
    // runs short only prints the texts it has written over again.
    const bytesPerEntry = opts.geometry ? 4096 : 1024;
    this.#texts = new TextRing(maxEntries * bytesPerEntry, maxEntries);
  }

  /** `JSON.stringify(presentGeofence(g, now, opts))`. */
  of(g: Geofence, now: number): string {
    const enabled = isGeofenceEnabled(g, now) ? 1 : 0;
    const entry = this.#kept.get(g);
    if (entry !== undefined) {
      const kept = (entry & 1) === enabled ? this.#texts.get(entry >> 1) : undefined;
      if (kept !== undefined) return kept;
      this.#kept.delete(g);
      this.#texts.release(entry >> 1);
    }
    // With the outline, polygonJson prints its doubles about 4.5 times faster than JSON.stringify: a
    // search of 10 fences that were not kept cost ~650 µs of CPU, most of it printing outlines.
    const json = geofenceJson(g, now, this.opts.geometry);
    if (this.#kept.size >= this.maxEntries) {
      const oldest = takeOldest(this.#kept);
      if (oldest) this.#texts.release(oldest[1] >> 1);
    }
    const handle = this.#texts.put(json);
    if (handle >= 0) this.#kept.set(g, handle * 2 + enabled);
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
