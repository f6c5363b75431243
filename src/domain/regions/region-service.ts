import type { Position } from '../../geo/types.js';
import type { PackSource } from '../../geodata/live-pack.js';
import { taggedPostcodeOf } from '../../geodata/tagged-postcode.js';
import { type RegionSet, regionSetOf } from './region.js';

/** Which regions contain a point, from whatever pack the server has open now. */
export class RegionService {
  constructor(private readonly packs: PackSource) {}

  /**
   * The country, state, DMA and postal code at `[lon, lat]` (degrees). Null when the server has no
   * pack, so callers can tell "nowhere" (an empty set, e.g. open sea) from "unknown".
   */
  at([lon, lat]: Position): RegionSet | null {
    const pack = this.packs.current();
    if (!pack) return null;
    const regions = pack.regionsAt(lon, lat);
    // Without a ZCTA polygon here, the postcode the nearby OSM addresses carry beats the nearest ZIP point.
    if (regions.postalCode?.approximate) {
      const tagged = taggedPostcodeOf(pack)?.(lon, lat);
      if (tagged) regions.postalCode = { code: tagged, approximate: true };
    }
    return regionSetOf(regions);
  }
}
