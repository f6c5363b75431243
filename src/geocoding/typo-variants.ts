import { PrefixFilter } from '../geodata/prefix-filter.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789 ';

/**
 * Every string one edit away from `s` (a deletion, an adjacent transposition, a substitution or an
 * insertion over `[a-z0-9 ]`), without `s` itself. For a 7-letter word that is about 560 strings: looking
 * each up in the sorted name index costs well under a millisecond, far less than scoring every name.
 */
export function typoVariants(s: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < s.length; i++) {
    out.add(s.slice(0, i) + s.slice(i + 1));
    if (i + 1 < s.length) out.add(s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2));
    for (const c of ALPHABET) out.add(s.slice(0, i) + c + s.slice(i + 1));
  }
  for (let i = 0; i <= s.length; i++) {
    for (const c of ALPHABET) out.add(s.slice(0, i) + c + s.slice(i));
  }
  out.delete(s);
  return out;
}

/**
 * The variants of {@link typoVariants} that may start a name of `filter`'s keys: the same set minus strings
 * that no key starts with (the filter has no false negatives, so no match is lost). Each candidate is
 * probed one character at a time from its edit on, reusing the hash state of the untouched start, and most
 * fail at the edited character: the hundreds of hopeless variants of a query cost no strings and no lookups.
 */
export function viableTypoVariants(s: string, filter: PrefixFilter): Set<string> {
  const out = new Set<string>();
  const n = s.length;
  // state[i]: hash state of s[0..i); edits at i or later need s[0..i) to start a key.
  const state = [PrefixFilter.EMPTY];
  let viable = n;
  for (let i = 0; i < n; i++) {
    state.push(filter.extend(state[i]!, s.charCodeAt(i)));
    if (viable === n && !filter.has(state[i + 1]!)) viable = i;
  }
  // Whether the edited start (hash `h`) followed by s[from..] may start a key.
  const rest = (h: number, from: number) => {
    for (let k = from; k < n; k++) {
      h = filter.extend(h, s.charCodeAt(k));
      if (!filter.has(h)) return false;
    }
    return true;
  };
  const withChar = (i: number, code: number, from: number) => {
    const h = filter.extend(state[i]!, code);
    if (filter.has(h) && rest(h, from)) out.add(s.slice(0, i) + String.fromCharCode(code) + s.slice(from));
  };
  for (let i = 0; i <= Math.min(viable, n - 1); i++) {
    if (n > 1 && rest(state[i]!, i + 1)) out.add(s.slice(0, i) + s.slice(i + 1));
    if (i + 1 < n) {
      const first = filter.extend(state[i]!, s.charCodeAt(i + 1));
      const both = filter.extend(first, s.charCodeAt(i));
      if (filter.has(first) && filter.has(both) && rest(both, i + 2)) {
        out.add(s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2));
      }
    }
    for (let a = 0; a < ALPHABET.length; a++) withChar(i, ALPHABET.charCodeAt(a), i + 1);
  }
  for (let i = 0; i <= Math.min(viable, n); i++) {
    for (let a = 0; a < ALPHABET.length; a++) withChar(i, ALPHABET.charCodeAt(a), i);
  }
  out.delete(s);
  return out;
}
