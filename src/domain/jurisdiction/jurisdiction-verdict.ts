import type { JurisdictionSettings } from './jurisdiction-settings.js';

/** What the pack says about a point, with the border distance of the area answered. */
export interface JurisdictionPlace {
  countryCode: string | undefined;
  /** ISO 3166-2 suffix (`NJ`), with `countryCode` making the full code. */
  stateCode: string | undefined;
  /** Meters to the border of the state the point is in (else its country); undefined when unknown. */
  distanceToBorder: number | undefined;
}

/** Why a user is flagged, in `user.fraud.reasons` (and whether the request is refused: `refuse`). */
export type JurisdictionReason =
  | 'country_blocked'
  | 'country_not_allowed'
  | 'state_not_allowed'
  | 'in_buffer_zone'
  | 'in_exclusion_zone';

export interface JurisdictionVerdict {
  /** Set when the request must be refused with 451: the country code that refuses it ('' when unknown). */
  refusedCountry: string | undefined;
  countryAllowed: boolean;
  stateAllowed: boolean;
  inBufferZone: boolean;
  /** Rounded meters; undefined when the pack has no border there. */
  distanceToBorder: number | undefined;
  inExclusionZone: boolean;
  reasons: JurisdictionReason[];
}

/**
 * The rules, pure: a blocked country, or one outside a non-empty allow list, refuses (451); a state
 * outside a non-empty state list is not allowed; inside an allowed state (or country, without a state
 * list) but nearer its border than `bufferMeters` is the buffer zone; an exclusion geofence flags too.
 * A point with no country at all (open sea) is outside any allow list.
 */
export function judge(j: JurisdictionSettings, at: JurisdictionPlace, inExclusionZone: boolean): JurisdictionVerdict {
  const country = at.countryCode;
  const reasons: JurisdictionReason[] = [];
  let refusedCountry: string | undefined;
  if (country && j.blockedCountries.includes(country)) {
    refusedCountry = country;
    reasons.push('country_blocked');
  } else if (j.allowedCountries.length > 0 && !(country && j.allowedCountries.includes(country))) {
    refusedCountry = country ?? '';
    reasons.push('country_not_allowed');
  }
  const countryAllowed = refusedCountry === undefined;
  const fullState = country && at.stateCode ? `${country}-${at.stateCode}` : undefined;
  const stateAllowed =
    countryAllowed && (j.allowedStates.length === 0 || (!!fullState && j.allowedStates.includes(fullState)));
  if (countryAllowed && !stateAllowed) reasons.push('state_not_allowed');
  const distance =
    at.distanceToBorder === undefined || !Number.isFinite(at.distanceToBorder)
      ? undefined
      : Math.round(at.distanceToBorder);
  const inBufferZone = stateAllowed && j.bufferMeters > 0 && distance !== undefined && distance < j.bufferMeters;
  if (inBufferZone) reasons.push('in_buffer_zone');
  if (inExclusionZone) reasons.push('in_exclusion_zone');
  return {
    refusedCountry,
    countryAllowed,
    stateAllowed,
    inBufferZone,
    distanceToBorder: distance,
    inExclusionZone,
    reasons,
  };
}
