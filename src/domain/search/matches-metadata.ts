import type { Metadata } from '../metadata.js';

/**
 * Whether `metadata` has every key of `filter` with an equal value. Query strings carry text, so a
 * value also matches its text form: the filter `true` matches stored `true` and `"true"`, and `12`
 * matches `12` and `"12"`. An empty or absent filter matches everything.
 */
export function matchesMetadata(metadata: Metadata | null, filter: Metadata | undefined): boolean {
  if (!filter) return true;
  for (const key of Object.keys(filter)) {
    const want = filter[key];
    const have = metadata?.[key];
    if (have === undefined) return false;
    if (have !== want && String(have) !== String(want)) return false;
  }
  return true;
}
