import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';
import type { User } from '../users/user.js';
import type { SegmentCondition } from './segment.js';

/** As many chains as `user.topChains` lists (PlacesTracker's TOP_CHAINS). */
const TOP_CHAINS = 10;

/**
 * `user.segments`: the project's segments (kept on the project, so no store read) whose condition the
 * user meets after this update. Runs last: it reads the Insights flags and the Places chain visits that
 * earlier participants left in `user.state` during this same update.
 */
export class SegmentsTracker implements TrackParticipant {
  readonly name = 'segments';

  onTrack(u: TrackUpdate): TrackContribution {
    const segments = u.project.segments ?? [];
    if (segments.length === 0) return { events: [], userFields: { segments: [] } };
    const facts = userFacts(u);
    const matching = segments
      .filter((s) => meets(s.condition, facts))
      .map((s) => ({ description: s.description, externalId: s.externalId }));
    return { events: [], userFields: { segments: matching } };
  }
}

interface Facts {
  user: User;
  insights: Set<string>;
  chains: Set<string>;
}

function userFacts(u: TrackUpdate): Facts {
  const insights = new Set<string>();
  const flags = (u.user.state.insights as { flags?: Record<string, boolean> } | undefined)?.flags;
  if (u.project.features.insights && flags) for (const [k, on] of Object.entries(flags)) if (on) insights.add(k);
  const chains = new Set<string>();
  const visits = (u.user.state.places as { chains?: Record<string, { visits: number; lastAt: number }> } | undefined)
    ?.chains;
  if (u.project.features.places && visits) {
    const top = Object.entries(visits)
      .sort(([a, x], [b, y]) => y.visits - x.visits || y.lastAt - x.lastAt || (a < b ? -1 : 1))
      .slice(0, TOP_CHAINS);
    for (const [slug] of top) chains.add(slug);
  }
  return { user: u.user, insights, chains };
}

/** Every part of the condition holds; within a list, any item. */
export function meets(c: SegmentCondition, f: Facts): boolean {
  if (c.metadata) {
    const m = f.user.metadata ?? {};
    for (const [k, v] of Object.entries(c.metadata)) if (m[k] !== v) return false;
  }
  if (c.insights && !c.insights.some((s) => f.insights.has(s))) return false;
  if (c.topChains && !c.topChains.some((slug) => f.chains.has(slug))) return false;
  return true;
}
