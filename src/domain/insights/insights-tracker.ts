import { distanceMeters } from '../../geo/distance-meters.js';
import type { LocationEvent } from '../events/event.js';
import { updateEvent } from '../events/update-event.js';
import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';
import {
  addStop,
  confidenceOf,
  inferAnchors,
  MAX_ACCURACY_METERS,
  SPOT_RADIUS_METERS,
  type Spot,
} from './insights-history.js';
import { type Anchor, type InsightFlags, insightFlags, NO_FLAGS } from './insights-state.js';
import { localTimeAt } from './local-time.js';

/** What Insights keeps in `user.state.insights` between updates. Times epoch ms. */
export interface StoredInsights {
  spots: Spot[];
  home?: Anchor;
  office?: Anchor;
  flags: InsightFlags;
  /** When each flag last turned on (for `duration` on exit and stop events). */
  since: Partial<Record<keyof InsightFlags, number>>;
  lastAtAnchor?: number;
}

/**
 * The types the SDKs parse: the mobile SDKs' RadarEvent knows `user.entered_work` (radar-sdk-js passes
 * any type through as a string), where the office events had Radar's older name.
 */
const EVENT_NAMES: Record<keyof InsightFlags, [on: string, off: string]> = {
  home: ['user.entered_home', 'user.exited_home'],
  office: ['user.entered_work', 'user.exited_work'],
  traveling: ['user.started_traveling', 'user.stopped_traveling'],
  commuting: ['user.started_commuting', 'user.stopped_commuting'],
};
const FLAGS = Object.keys(EVENT_NAMES) as Array<keyof InsightFlags>;

/**
 * The Insights feature's step of every track (docs/insights.md): learns home and office from the
 * user's own stopped fixes, answers `user.insights` and emits entered/exited home and office and
 * started/stopped traveling and commuting. Moving updates cost a few distance computations; stopped
 * ones add a time zone lookup and a scan of at most MAX_SPOTS spots. Without the feature it does
 * nothing and keeps what was learnt.
 */
export class InsightsTracker implements TrackParticipant {
  readonly name = 'insights';

  onTrack(u: TrackUpdate): TrackContribution {
    if (!u.project.features.insights) return { events: [] };
    const prev = storedInsights(u.user.state.insights);
    const next: StoredInsights = { ...prev, since: { ...prev.since } };
    if (u.stopped && u.accuracyMeters <= MAX_ACCURACY_METERS) this.learn(u, next);
    const regions = u.user.state.regions as Record<string, { code?: string } | undefined> | undefined;
    const flags = insightFlags(
      {
        position: u.location,
        stopped: u.stopped,
        at: u.at,
        country: regions?.country?.code,
        state: regions?.state?.code,
        lastAtAnchor: prev.lastAtAnchor,
      },
      next.home,
      next.office,
    );
    next.flags = flags;
    if (flags.home || flags.office) next.lastAtAnchor = u.at;
    const events: LocationEvent[] = [];
    // Leaving first, then arriving: exited_home comes before started_commuting.
    for (const f of FLAGS) {
      if (prev.flags[f] && !flags[f]) {
        const since = prev.since[f];
        events.push(this.event(u, EVENT_NAMES[f][1], next, f, since === undefined ? 0 : (u.at - since) / 60_000));
        delete next.since[f];
      }
    }
    for (const f of FLAGS) {
      if (!prev.flags[f] && flags[f]) {
        events.push(this.event(u, EVENT_NAMES[f][0], next, f));
        next.since[f] = u.at;
      }
    }
    const userFields = { insights: presentInsights(next), locationInsights: locationInsights(next.flags) };
    return { events, userFields, state: { insights: next } };
  }

  /** Adds a stopped fix to the history and re-infers home and office when a day set changed. */
  private learn(u: TrackUpdate, next: StoredInsights): void {
    const keep = (s: Spot) => isAt(s, next.home) || isAt(s, next.office);
    const { spots, changed } = addStop(next.spots, u.location, u.at, localTimeAt(u.location, u.at), keep);
    next.spots = spots;
    if (!changed) return;
    const { home, office } = inferAnchors(spots);
    const regions = u.user.state.regions as Record<string, { code?: string } | undefined> | undefined;
    const here = { country: regions?.country?.code, state: regions?.state?.code };
    next.home = home ? anchor(home, home.nights.length, next.home, u.at, here, u.location) : undefined;
    next.office = office ? anchor(office, office.workdays.length, next.office, u.at, here, u.location) : undefined;
    if (!next.home) delete next.home;
    if (!next.office) delete next.office;
  }

  private event(
    u: TrackUpdate,
    type: string,
    s: StoredInsights,
    flag: keyof InsightFlags,
    durationMinutes?: number,
  ): LocationEvent {
    const confidence =
      flag === 'office'
        ? (s.office?.confidence ?? 1)
        : flag === 'commuting'
          ? (Math.min(s.home?.confidence ?? 1, s.office?.confidence ?? 1) as 1 | 2 | 3)
          : (s.home?.confidence ?? 1);
    return updateEvent(u, type, confidence, { insights: presentInsights(s) }, durationMinutes);
  }
}

function isAt(s: Spot, a: Anchor | undefined): boolean {
  return !!a && distanceMeters([s.lon, s.lat], a.location) <= SPOT_RADIUS_METERS;
}

/**
 * The anchor for an inferred spot. Its `updatedAt` moves only when the location or confidence changed;
 * its region codes are those of the fix that re-inferred it when the user is there, else kept.
 */
function anchor(
  spot: Spot,
  days: number,
  before: Anchor | undefined,
  at: number,
  here: { country?: string | undefined; state?: string | undefined },
  position: [number, number],
): Anchor {
  const location: [number, number] = [spot.lon, spot.lat];
  const confidence = confidenceOf(days);
  const same =
    before &&
    before.location[0] === location[0] &&
    before.location[1] === location[1] &&
    before.confidence === confidence;
  const there = distanceMeters(location, position) <= SPOT_RADIUS_METERS;
  const out: Anchor = { location, confidence, updatedAt: same ? before.updatedAt : at };
  const country = there ? here.country : before?.country;
  const state = there ? here.state : before?.state;
  if (country) out.country = country;
  if (state) out.state = state;
  return out;
}

// Home and office change rarely: their ISO dates are formatted once, not on every update.
const isoCache = new Map<number, string>();
function isoOf(ms: number): string {
  let iso = isoCache.get(ms);
  if (iso === undefined) {
    if (isoCache.size > 10_000) isoCache.clear();
    iso = new Date(ms).toISOString();
    isoCache.set(ms, iso);
  }
  return iso;
}

/** `user.locationInsights`, as the mobile SDKs' RadarUser parses it. */
export function locationInsights(f: InsightFlags) {
  return { atHome: f.home, atWork: f.office, traveling: f.traveling, commuting: f.commuting };
}

/** The response's `user.insights`. */
export function presentInsights(s: StoredInsights) {
  const locations = [];
  for (const type of ['home', 'office'] as const) {
    const a = s[type];
    if (a)
      locations.push({
        type,
        location: { type: 'Point', coordinates: a.location },
        confidence: a.confidence,
        updatedAt: isoOf(a.updatedAt),
      });
  }
  return { locations, state: { ...s.flags } };
}

/** Reads `user.state.insights`; anything unreadable starts afresh. */
export function storedInsights(raw: unknown): StoredInsights {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Partial<StoredInsights>;
  return {
    spots: Array.isArray(r.spots) ? r.spots : [],
    ...(r.home ? { home: r.home } : {}),
    ...(r.office ? { office: r.office } : {}),
    flags: { ...NO_FLAGS, ...(r.flags ?? {}) },
    since: r.since && typeof r.since === 'object' ? r.since : {},
    ...(typeof r.lastAtAnchor === 'number' ? { lastAtAnchor: r.lastAtAnchor } : {}),
  };
}
