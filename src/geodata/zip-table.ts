import { distance } from 'geokdbush';
import type KDBush from 'kdbush';
import { pointIndex } from './locality-table.js';
import type { ZipColumns } from './records.js';

/**
 * How far the nearest ZCTA point may be for point → ZIP. Rural ZCTAs in the West span tens of kilometres,
 * so the internal point of the right one can be that far; beyond this the answer is more likely wrong
 * than right. Candidates must also be in the point's state, which fixes most errors near state lines.
 */
export const ZIP_POINT_MAX_METERS = 40_000;

const METERS_PER_DEG_LAT = 111_320;
const FIVE_DIGITS = /^\d{5}$/;

/** US ZIP codes with a KD-tree over the Census ZCTA internal points. */
export class ZipTable {
  readonly columns: ZipColumns;
  readonly count: number;
  private readonly zctaIds: Uint32Array;
  /** KD-tree over the ZCTA points only; item `k` is row `zctaIds[k]`. */
  readonly index: KDBush;
  // Row + 1 by the code's number (0: none): ZIP codes are five digits, so one array holds them all, where
  // a Map held 41,000 key strings for the garbage collector to mark.
  private readonly byCode = new Uint32Array(100_000);

  /** @param index the KD-tree over the ZCTA points as the world import stored it; built here when absent. */
  constructor(columns: ZipColumns, index?: KDBush) {
    this.columns = columns;
    this.count = columns.code.length;
    const ids: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const code = columns.code.get(i)!;
      if (FIVE_DIGITS.test(code)) this.byCode[Number(code)] = i + 1;
      if (columns.zcta[i] === 1) ids.push(i);
    }
    this.zctaIds = Uint32Array.from(ids);
    this.index = index ?? pointIndex(ids.length, (k) => [columns.lon[ids[k]!]!, columns.lat[ids[k]!]!]);
  }

  /** Row of a 5-digit ZIP code, or -1. */
  find(code: string): number {
    return FIVE_DIGITS.test(code) ? this.byCode[Number(code)]! - 1 : -1;
  }

  /**
   * The row of the nearest ZCTA point within `maxMeters` of `(lon, lat)`, in `stateCode` when given (and in
   * the county of 5-digit FIPS `countyFips` when given), or -1.
   * Searches boxes of growing size (2 km, 8 km, then `maxMeters`): a hit no farther than the box's half-width
   * is the nearest, and most points find one in the first box, which keeps this at a few microseconds.
   * @param lon longitude in degrees
   * @param lat latitude in degrees
   */
  nearest(lon: number, lat: number, stateCode?: string, maxMeters = ZIP_POINT_MAX_METERS, countyFips?: string): number {
    const { lon: lons, lat: lats, stateCode: states, countyFips: counties } = this.columns;
    const metersPerDegLon = METERS_PER_DEG_LAT * Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
    for (const radius of [2000, 8000, maxMeters]) {
      const r = Math.min(radius, maxMeters);
      const dLat = r / METERS_PER_DEG_LAT;
      const dLon = r / metersPerDegLon;
      let best = -1;
      let bestD2 = r * r;
      for (const k of this.index.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
        const i = this.zctaIds[k]!;
        if (stateCode && !states.equals(i, '') && !states.equals(i, stateCode)) continue;
        if (countyFips && !counties.equals(i, countyFips)) continue;
        // Equirectangular distance: within tens of kilometres it ranks points as great circles do.
        const dx = (lons[i]! - lon) * metersPerDegLon;
        const dy = (lats[i]! - lat) * METERS_PER_DEG_LAT;
        const d2 = dx * dx + dy * dy;
        if (d2 <= bestD2) {
          bestD2 = d2;
          best = i;
        }
      }
      if (best >= 0 || r >= maxMeters) return best;
    }
    return -1;
  }

  /** Great-circle distance in metres from `(lon, lat)` to ZIP row `i`. */
  distanceMeters(i: number, lon: number, lat: number): number {
    return distance(lon, lat, this.columns.lon[i]!, this.columns.lat[i]!) * 1000;
  }
}
