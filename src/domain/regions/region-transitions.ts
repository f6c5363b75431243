import { REGION_TYPES, type Region, type RegionSet, type RegionType } from './region.js';

/** A region the user is in, as kept in `user.state.regions`, with when they entered it (epoch ms). */
export interface StoredRegion extends Region {
  enteredAt: number;
}
export type StoredRegions = Partial<Record<RegionType, StoredRegion>>;

export interface RegionTransitions {
  /** Regions left, with the minutes spent inside (from `enteredAt` to the update's time). */
  exited: Array<{ region: Region; durationMinutes: number }>;
  entered: Region[];
  /** What to keep for the next update. */
  next: StoredRegions;
}

/**
 * The region changes of one update: per type, the user exited the previous region and entered the
 * current one when their `_id`s differ (a region gone from the answer, e.g. out at sea, is an exit
 * only). A region kept keeps its `enteredAt` but takes the current name (a pack may rename it).
 * Pure. `at` is the update's time, epoch ms.
 */
export function regionTransitions(previous: StoredRegions, current: RegionSet, at: number): RegionTransitions {
  const out: RegionTransitions = { exited: [], entered: [], next: {} };
  for (const type of REGION_TYPES) {
    const before = previous[type];
    const now = current[type];
    if (before && now && before._id === now._id) {
      out.next[type] = { ...now, enteredAt: before.enteredAt };
      continue;
    }
    if (before) {
      const { enteredAt, ...region } = before;
      out.exited.push({ region, durationMinutes: Math.max(0, (at - enteredAt) / 60_000) });
    }
    if (now) {
      out.entered.push(now);
      out.next[type] = { ...now, enteredAt: at };
    }
  }
  return out;
}

/** Reads `user.state.regions` as stored by earlier updates; anything unreadable counts as none. */
export function storedRegions(raw: unknown): StoredRegions {
  if (!raw || typeof raw !== 'object') return {};
  const out: StoredRegions = {};
  for (const type of REGION_TYPES) {
    const r = (raw as Record<string, unknown>)[type] as StoredRegion | undefined;
    if (r && typeof r._id === 'string' && typeof r.enteredAt === 'number') out[type] = r;
  }
  return out;
}
