import { distanceMeters } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';

/** An inferred home or office as kept in `user.state.insights`. Times epoch ms. */
export interface Anchor {
  location: Position;
  confidence: 1 | 2 | 3;
  updatedAt: number;
  /** Country and state codes at the anchor when Regions knew them (for "another state or country"). */
  country?: string;
  state?: string;
}

export interface InsightFlags {
  home: boolean;
  office: boolean;
  traveling: boolean;
  commuting: boolean;
}

export const NO_FLAGS: InsightFlags = { home: false, office: false, traveling: false, commuting: false };

/** At home or office: within this distance of the inferred location. */
export const AT_ANCHOR_METERS = 200;
/** Traveling: farther than this from home, whatever the regions say. */
export const TRAVELING_METERS = 100_000;
/** Traveling: in another US state (or Canadian province) and farther than this from home. */
export const TRAVELING_OTHER_STATE_METERS = 50_000;
/** Commuting: the detour over the straight home-office line stays within this factor plus slack. */
export const COMMUTE_DETOUR_FACTOR = 1.5;
export const COMMUTE_SLACK_METERS = 1000;
/** Commuting: moving, and at home or at the office no longer than this ago. */
export const COMMUTE_WINDOW_MS = 3 * 3_600_000;

export interface Whereabouts {
  position: Position;
  stopped: boolean;
  at: number;
  /** Country and state codes of the current position (Regions), when known. */
  country?: string | undefined;
  state?: string | undefined;
  /** Last time the user was at home or at the office, epoch ms. */
  lastAtAnchor?: number | undefined;
}

/** The insight flags at one update. Pure. */
export function insightFlags(w: Whereabouts, home: Anchor | undefined, office: Anchor | undefined): InsightFlags {
  if (!home) return NO_FLAGS;
  const fromHome = distanceMeters(w.position, home.location);
  const atHome = fromHome <= AT_ANCHOR_METERS;
  const fromOffice = office ? distanceMeters(w.position, office.location) : Number.POSITIVE_INFINITY;
  const atOffice = !atHome && fromOffice <= AT_ANCHOR_METERS;
  const otherCountry = !!(home.country && w.country && home.country !== w.country);
  const otherState = !!(home.state && w.state && home.state !== w.state) && fromHome > TRAVELING_OTHER_STATE_METERS;
  const traveling = !atHome && !atOffice && (fromHome > TRAVELING_METERS || otherCountry || otherState);
  let commuting = false;
  if (office && !atHome && !atOffice && !traveling && !w.stopped) {
    const line = distanceMeters(home.location, office.location);
    const recent = w.lastAtAnchor !== undefined && w.at - w.lastAtAnchor <= COMMUTE_WINDOW_MS;
    commuting = recent && fromHome + fromOffice <= line * COMMUTE_DETOUR_FACTOR + COMMUTE_SLACK_METERS;
  }
  return { home: atHome, office: atOffice, traveling, commuting };
}
