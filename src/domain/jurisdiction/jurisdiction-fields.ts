import type { RegionSet } from '../regions/region.js';
import type { JurisdictionVerdict } from './jurisdiction-verdict.js';

/**
 * The answer's fields for a verdict, over the regions already answered (track's Regions step, context)
 * or found for it: `country.allowed`; `state.allowed`, `state.inBufferZone`, `state.distanceToBorder`;
 * `inExclusionZone`; and, for tracks, `fraud.blocked` with its `reasons` (a blocked user also fails
 * `fraud.passed`). Without a state answered, the state fields stand alone in `state`.
 */
export function jurisdictionFields(
  v: JurisdictionVerdict,
  regions: RegionSet,
  fraud?: Record<string, unknown>,
): Record<string, unknown> {
  // Set field by field rather than spread from conditional objects: this runs on every track with lists.
  const state: Record<string, unknown> = regions.state ? { ...regions.state } : {};
  state.allowed = v.stateAllowed;
  state.inBufferZone = v.inBufferZone;
  if (v.distanceToBorder !== undefined) state.distanceToBorder = v.distanceToBorder;
  const out: Record<string, unknown> = { state, inExclusionZone: v.inExclusionZone };
  if (regions.country) out.country = { ...regions.country, allowed: v.countryAllowed };
  if (fraud) {
    const blocked = v.reasons.length > 0;
    out.fraud = { ...fraud, passed: fraud.passed !== false && !blocked, blocked, reasons: v.reasons };
  }
  return out;
}
