/**
 * The same string, its characters made contiguous. Text built with `+` or a template literal is a
 * rope in V8 (a tree of its pieces), made contiguous only when something reads it whole. A rope kept
 * in a cache and printed into response after response is walked node by node every time, and its
 * nodes lie scattered over the old generation by then: the track route spent ~17 µs a response
 * flattening the texts of three or four cached fences (100,000 fences in its cache), ~10% of the
 * event loop's time a track, against ~2.6 µs once they were flat (2026-11-29, docs/performance-log.md).
 *
 * Converting to a number flattens the string in place first (V8's String::Flatten); the result is
 * kept so that no compiler may leave the conversion out.
 */
export function flat(s: string): string {
  _lastConversion = Number(s);
  return s;
}

let _lastConversion = 0;
