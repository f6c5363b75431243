import type { Position } from '../../geo/types.js';
import type { PackSource } from '../../geodata/live-pack.js';
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
    return pack ? regionSetOf(pack.regionsAt(lon, lat)) : null;
  }
}
