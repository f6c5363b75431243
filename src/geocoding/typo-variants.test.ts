import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NextChars } from './next-chars.js';
import { typoVariants, viableTypoVariants } from './typo-variants.js';

const KEYS = ['honolulu', 'honokaa', 'paris', 'parish', 'san jose', 'san juan', 'springfield', 'la sabana', 'vaduz'];
const startsAKey = (v: string) => KEYS.some((k) => k.startsWith(v));

test('viableTypoVariants keeps every one-edit variant that starts a key, in typoVariants order, and drops most others', () => {
  const filter = new NextChars(KEYS);
  for (const q of ['hnolulu', 'honolul', 'hoonlulu', 'pariss', 'sna jose', 'san jse', 'springfeld', 'vadz', 'xqzvk']) {
    const all = typoVariants(q);
    const viable = viableTypoVariants(q, filter);
    const needed = [...all].filter(startsAKey);
    for (const v of needed) assert.ok(viable.has(v), `${q}: ${v} starts a key but was dropped`);
    for (const v of viable) assert.ok(all.has(v), `${q}: ${v} is not a one-edit variant`);
    assert.ok(viable.size <= needed.length + 5, `${q}: ${viable.size} kept for ${needed.length} viable`);
    assert.ok(!viable.has(q));
    // The order of typoVariants (the order candidates are ranked in when scores tie).
    assert.deepEqual([...viable].filter(startsAKey), needed);
  }
  assert.deepEqual([...viableTypoVariants('xqzvk', filter)], []);
});

test('NextChars answers every next character of every prefix of its keys', () => {
  const next = new NextChars(KEYS);
  for (const k of KEYS) {
    let h = NextChars.EMPTY;
    for (let i = 0; i < k.length; i++) {
      assert.ok(next.follows(h, k.charCodeAt(i)), k.slice(0, i + 1));
      h = NextChars.extend(h, k.charCodeAt(i));
    }
  }
  assert.equal(next.follows(NextChars.EMPTY, 'z'.charCodeAt(0)), false);
  assert.equal(next.follows(NextChars.EMPTY, 'é'.charCodeAt(0)), false);
});
