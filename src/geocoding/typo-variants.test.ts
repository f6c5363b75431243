import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PrefixFilter } from '../geodata/prefix-filter.js';
import { typoVariants, viableTypoVariants } from './typo-variants.js';

const KEYS = ['honolulu', 'honokaa', 'paris', 'parish', 'san jose', 'san juan', 'springfield', 'la sabana', 'vaduz'];
const startsAKey = (v: string) => KEYS.some((k) => k.startsWith(v));

test('viableTypoVariants keeps every one-edit variant that starts a key, and drops most others', () => {
  const filter = new PrefixFilter(KEYS);
  for (const q of ['hnolulu', 'honolul', 'hoonlulu', 'pariss', 'sna jose', 'san jse', 'springfeld', 'vadz', 'xqzvk']) {
    const all = typoVariants(q);
    const viable = viableTypoVariants(q, filter);
    const needed = [...all].filter(startsAKey);
    for (const v of needed) assert.ok(viable.has(v), `${q}: ${v} starts a key but was dropped`);
    for (const v of viable) assert.ok(all.has(v), `${q}: ${v} is not a one-edit variant`);
    assert.ok(viable.size <= needed.length + 5, `${q}: ${viable.size} kept for ${needed.length} viable`);
    assert.ok(!viable.has(q));
  }
  assert.deepEqual([...viableTypoVariants('xqzvk', filter)], []);
});

test('PrefixFilter answers every prefix of its keys', () => {
  const filter = new PrefixFilter(KEYS);
  for (const k of KEYS)
    for (let i = 1; i <= k.length; i++) assert.ok(filter.mayStartWith(k.slice(0, i)), k.slice(0, i));
  assert.equal(filter.mayStartWith('zzzz'), false);
});
