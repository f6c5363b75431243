import type { Regions } from '../../geodata/pack.js';

/** The kinds of region the Regions feature reports, in the order they are listed and diffed. */
export const REGION_TYPES = ['country', 'state', 'dma', 'postalCode'] as const;
export type RegionType = (typeof REGION_TYPES)[number];

/**
 * A region as clients read it (`{_id, type, code, name}`; the iOS SDK drops a region missing any of the
 * four), already in wire shape because events keep it as a snapshot. `_id` is stable across packs and
 * servers: `country:US`, `state:US-HI` (admin-1 codes repeat between countries), `dma:744`,
 * `postalCode:96813`.
 */
export interface Region {
  _id: string;
  type: RegionType;
  code: string;
  name: string;
  /** Countries only: the flag emoji. */
  flag?: string;
  /** Postal codes only: true when it is the nearest ZIP point rather than a containing ZCTA polygon. */
  approximate?: true;
}

/** The regions at a point, by type; a type is absent when the pack has no answer there. */
export type RegionSet = Partial<Record<RegionType, Region>>;

/** Maps the pack's `regionsAt` answer to region objects (the county is not a region of the feature). */
export function regionSetOf(r: Regions): RegionSet {
  const out: RegionSet = {};
  if (r.country) {
    const { code, name, flag } = r.country;
    out.country = { _id: `country:${code}`, type: 'country', code, name, flag };
  }
  if (r.state) {
    const prefix = r.country?.code ?? 'XX';
    out.state = { _id: `state:${prefix}-${r.state.code}`, type: 'state', code: r.state.code, name: r.state.name };
  }
  if (r.dma) out.dma = { _id: `dma:${r.dma.code}`, type: 'dma', code: r.dma.code, name: r.dma.name };
  if (r.postalCode) {
    const { code, approximate } = r.postalCode;
    // ZIP codes have no names; Radar repeats the code, and clients expect a name.
    out.postalCode = { _id: `postalCode:${code}`, type: 'postalCode', code, name: code };
    if (approximate) out.postalCode.approximate = true;
  }
  return out;
}
