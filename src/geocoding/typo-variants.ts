import { ALPHABET, NextChars } from './next-chars.js';

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
 * The variants of {@link typoVariants} that may start a key of `next` (see {@link NextChars}), in the same
 * order: the same set minus strings that no key starts with (`next` has no false negatives, so no match is
 * lost). Each candidate is checked one character at a time from its edit on, and most fail at the edited
 * character, which one memory word per position answers: the hundreds of hopeless variants of a query
 * cost no strings and no lookups.
 */
export function viableTypoVariants(s: string, next: NextChars): Set<string> {
  const out = new Set<string>();
  const n = s.length;
  // state[i]: hash state of s[0..i); edits at i or later need s[0..i) to start a key.
  const state = [NextChars.EMPTY];
  let viable = n;
  for (let i = 0; i < n; i++) {
    if (viable === n && !next.follows(state[i]!, s.charCodeAt(i))) viable = i;
    state.push(NextChars.extend(state[i]!, s.charCodeAt(i)));
  }
  for (let i = 0; i <= Math.min(viable, n - 1); i++) {
    if (n > 1 && mayFollow(s, next, state[i]!, i + 1)) out.add(s.slice(0, i) + s.slice(i + 1));
    if (i + 1 < n) {
      const a = s.charCodeAt(i + 1);
      const first = NextChars.extend(state[i]!, a);
      if (
        next.follows(state[i]!, a) &&
        next.follows(first, s.charCodeAt(i)) &&
        mayFollow(s, next, NextChars.extend(first, s.charCodeAt(i)), i + 2)
      ) {
        out.add(s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2));
      }
    }
    addWithChars(out, s, next, state[i]!, i, i + 1);
  }
  for (let i = 0; i <= Math.min(viable, n); i++) {
    addWithChars(out, s, next, state[i]!, i, i);
  }
  out.delete(s);
  return out;
}

// Module functions, not closures made per call: tsx's keepNames wraps each named closure it makes.

/** Whether the edited start (hash state `h`) followed by `s[from..]` may start a key. */
function mayFollow(s: string, next: NextChars, h: number, from: number): boolean {
  for (let k = from; k < s.length; k++) {
    const code = s.charCodeAt(k);
    if (!next.follows(h, code)) return false;
    h = NextChars.extend(h, code);
  }
  return true;
}

/**
 * Adds `s[0..i)` (hash state `h`) + each character that may follow it (one slot read for all of them, in
 * ALPHABET order) + `s[from..]`, when that may start a key.
 */
function addWithChars(out: Set<string>, s: string, next: NextChars, h: number, i: number, from: number): void {
  for (let word = 0; word < 2; word++) {
    for (let bits = word === 0 ? next.low(h) : next.high(h); bits !== 0; bits &= bits - 1) {
      const code = ALPHABET.charCodeAt(word * 32 + 31 - Math.clz32(bits & -bits));
      if (mayFollow(s, next, NextChars.extend(h, code), from))
        out.add(s.slice(0, i) + String.fromCharCode(code) + s.slice(from));
    }
  }
}
