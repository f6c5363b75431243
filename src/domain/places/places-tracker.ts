import type { EventType, LocationEvent } from '../events/event.js';
import { updateEvent } from '../events/update-event.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';
import { type Place, placeSnapshot } from './place.js';
import { placeConfidence } from './place-confidence.js';
import {
  candidateTier,
  FOOTPRINT_MARGIN_METERS,
  MAX_ACCURACY_REACH_METERS,
  MAX_FOOTPRINT_ACCURACY_METERS,
  type PlaceCandidate,
  type PlaceService,
  POINT_PLACE_METERS,
} from './place-service.js';
import { passesPlaceFilters, withProjectChainFields } from './place-settings-view.js';

/** Extra meters a user may drift from the place they are at before they leave it (no flapping at the edge). */
export const EXIT_MARGIN_METERS = 20;
/** How many chains `user.topChains` lists. */
export const TOP_CHAINS = 10;
/** Alternates listed with `user.entered_place`. */
const MAX_ALTERNATES = 3;
/** Chains whose visits `user.state.places` keeps (the least visited go first): bounds the user record. */
export const KEPT_CHAINS = 50;
/**
 * A fix less precise than this (a cell-tower or IP fix) cannot tell one shop from the next: it neither
 * enters nor leaves a place, and the user stays where they were.
 */
export const MAX_PLACE_ACCURACY_METERS = 200;

/** The place the user is at, as kept in `user.state.places`. */
interface StoredPlace {
  id: string;
  place: Place;
  hasFootprint: boolean;
  enteredAt: number;
  /** Whether entering it passed the project's placeFilters (its exit is reported only then). */
  evented: boolean;
}

interface ChainVisits {
  name: string;
  visits: number;
  lastAt: number;
}

interface PlacesState {
  current?: StoredPlace;
  chains: Record<string, ChainVisits>;
}

/**
 * The Places feature's step of every track, for projects that enabled it: sets `user.place` when the fix
 * is at a place (inside its outline, or near a point place, see PlaceService.candidatesAt), emits
 * `user.exited_place` (with `duration`, minutes) and `user.entered_place` (with `alternatePlaces` and
 * `confidence`) when that place changes, for places the project's placeFilters let through, and keeps
 * `user.topChains`: the chains of the places the user entered most often (visits kept in
 * `user.state.places`). Without imported places it does nothing and keeps the stored place.
 */
export class PlacesTracker implements TrackParticipant {
  readonly name = 'places';

  constructor(
    private readonly places: PlaceService,
    private readonly settings: SettingsService,
  ) {}

  /** At once when the project has Places off. */
  onTrack(u: TrackUpdate): TrackContribution | Promise<TrackContribution> {
    if (!u.project.features.places) return { events: [] };
    return this.track(u);
  }

  private async track(u: TrackUpdate): Promise<TrackContribution> {
    const state = readState(u.user.state.places);
    if (!this.places.available()) return { events: [], userFields: this.fields(state, undefined, null) };
    const settings = await this.settings.get(u.tenant);
    if (u.accuracyMeters > MAX_PLACE_ACCURACY_METERS) {
      const current = state.current && { ...state.current, place: refreshChain(state.current.place, settings) };
      return { events: [], userFields: this.fields(state, current, settings) };
    }
    const candidates = this.places.candidatesAt(u.location, u.accuracyMeters, settings);
    const accuracy = Math.max(0, u.accuracyMeters || 0);
    const stored = state.current;
    const top = candidates[0];
    const storedHere = stored && candidates.find((c) => c.place.id === stored.id);
    // Stay until out of reach, or until a more telling place shows up (walking from a park into its café).
    const staying = stored && this.stillAt(stored, u, accuracy) && !(top && takesOver(top, stored.id, storedHere));
    const events: LocationEvent[] = [];
    let current: StoredPlace | undefined;
    if (staying) {
      const fresh = storedHere?.place;
      current = { ...stored, place: fresh ?? refreshChain(stored.place, settings) };
    } else {
      if (stored?.evented) {
        const duration = Math.max(0, (u.at - stored.enteredAt) / 60_000);
        events.push(this.event(u, 'user.exited_place', { place: placeSnapshot(stored.place) }, 3, duration));
      }
      const chosen = candidates[0];
      if (chosen) {
        const evented = passesPlaceFilters(chosen.place, settings.placeFilters);
        current = {
          id: chosen.place.id,
          place: chosen.place,
          hasFootprint: chosen.hasFootprint,
          enteredAt: u.at,
          evented,
        };
        const alternates = candidates.slice(1);
        if (evented) {
          events.push(
            this.event(
              u,
              'user.entered_place',
              {
                place: placeSnapshot(chosen.place),
                alternatePlaces: alternates.slice(0, MAX_ALTERNATES).map((c) => placeSnapshot(c.place)),
              },
              placeConfidence(chosen, alternates, accuracy),
            ),
          );
        }
        const chain = chosen.place.chain;
        if (chain) {
          const seen = state.chains[chain.slug];
          state.chains[chain.slug] = { name: chain.name, visits: (seen?.visits ?? 0) + 1, lastAt: u.at };
          keepTopChains(state.chains);
        }
      }
    }
    const next: PlacesState = { chains: state.chains, ...(current ? { current } : {}) };
    return { events, userFields: this.fields(next, current, settings), state: { places: next } };
  }

  /** Whether the fix is still within the stored place's reach, widened by the exit margin. */
  private stillAt(stored: StoredPlace, u: TrackUpdate, accuracy: number): boolean {
    const d = this.places.distanceTo(stored.id, u.location);
    if (d === null) return false;
    const reach = stored.hasFootprint
      ? FOOTPRINT_MARGIN_METERS + Math.min(accuracy, MAX_FOOTPRINT_ACCURACY_METERS)
      : POINT_PLACE_METERS + Math.min(accuracy, MAX_ACCURACY_REACH_METERS);
    return d <= reach + EXIT_MARGIN_METERS;
  }

  private fields(
    state: PlacesState,
    current: StoredPlace | undefined,
    settings: Parameters<typeof withProjectChainFields>[1] | null,
  ): Record<string, unknown> {
    const topChains = Object.entries(state.chains)
      .sort(([a, x], [b, y]) => y.visits - x.visits || y.lastAt - x.lastAt || (a < b ? -1 : 1))
      .slice(0, TOP_CHAINS)
      .map(([slug, c]) => {
        const externalId = settings?.chainMappings[slug];
        return { name: c.name, slug, ...(externalId !== undefined ? { externalId } : {}) };
      });
    return { ...(current ? { place: placeSnapshot(current.place) } : {}), topChains };
  }

  private event(
    u: TrackUpdate,
    type: EventType,
    extra: Record<string, unknown>,
    confidence: 1 | 2 | 3,
    durationMinutes?: number,
  ): LocationEvent {
    return updateEvent(u, type, confidence, extra, durationMinutes);
  }
}

/**
 * Whether the best candidate replaces the place the user is at although they are still within its reach:
 * a more telling kind of candidate (see candidateTier) does, and so does a place near the user that is
 * {@link EXIT_MARGIN_METERS} nearer than the current one (walking along a row of shops). When the current
 * place is no longer a candidate (the fix is in its exit margin), any place near the user does.
 */
export function takesOver(top: PlaceCandidate, storedId: string, storedHere: PlaceCandidate | undefined): boolean {
  if (top.place.id === storedId) return false;
  const tier = candidateTier(top);
  if (!storedHere) return tier <= 1;
  const storedTier = candidateTier(storedHere);
  if (tier !== storedTier) return tier < storedTier;
  return tier === 1 && top.distance + EXIT_MARGIN_METERS < storedHere.distance;
}

/** Drops the least visited (then least recent) chains beyond {@link KEPT_CHAINS}. */
function keepTopChains(chains: Record<string, ChainVisits>): void {
  const slugs = Object.keys(chains);
  if (slugs.length <= KEPT_CHAINS) return;
  slugs.sort((a, b) => chains[b]!.visits - chains[a]!.visits || chains[b]!.lastAt - chains[a]!.lastAt);
  for (const slug of slugs.slice(KEPT_CHAINS)) delete chains[slug];
}

function refreshChain(place: Place, settings: Parameters<typeof withProjectChainFields>[1]): Place {
  return place.chain ? { ...place, chain: withProjectChainFields(place.chain, settings) } : place;
}

/** The place the user was at after their last update (wire shape), for the user record; undefined when none. */
export function storedPlace(raw: unknown): Record<string, unknown> | undefined {
  const current = readState(raw).current;
  return current ? placeSnapshot(current.place) : undefined;
}

/** Reads `user.state.places` as stored by earlier updates; anything unreadable counts as none. */
function readState(raw: unknown): PlacesState {
  const out: PlacesState = { chains: {} };
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Partial<PlacesState>;
  const c = r.current;
  if (c && typeof c.id === 'string' && typeof c.enteredAt === 'number' && c.place) out.current = c;
  if (r.chains && typeof r.chains === 'object') {
    for (const [slug, v] of Object.entries(r.chains)) {
      if (v && typeof v.visits === 'number') out.chains[slug] = { ...v };
    }
  }
  return out;
}
