import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NameIndex } from '../geodata/name-index.js';
import { KeyRanges } from './key-ranges.js';

const KEYS = ['a', 'a b', 'aa', 'ab', 'abc', 'abd', 'b', 'ba', 'paris', 'parish', 'parish', 'san jose', 'z', 'z9'];
const index = NameIndex.build((add) => {
  for (const [i, k] of KEYS.entries()) add(k, 0, i);
});

test('KeyRanges gives the ranges of NameIndex for every prefix and key, and for absent ones', () => {
  const ranges = new KeyRanges(index.keys);
  const probes = new Set(['', 'x', '0', ' ', 'zz', 'parishes', 'san', 'san j', 'b ', 'ab ', 'aaa']);
  for (const k of KEYS) for (let i = 1; i <= k.length; i++) probes.add(k.slice(0, i));
  for (const p of probes) {
    assert.deepEqual(ranges.prefixRange(p), index.prefixRange(p), `prefix ${JSON.stringify(p)}`);
    assert.deepEqual(ranges.exactRange(p), index.exactRange(p), `exact ${JSON.stringify(p)}`);
    const [from, to] = index.prefixRange(p);
    const both = ranges.ranges(p, 2);
    assert.deepEqual(both, { from, exactTo: index.exactRange(p)[1], prefixTo: Math.min(to, from + 2) }, p);
  }
});

test('KeyRanges searches every key when a key holds a character outside the buckets', () => {
  const odd = ['a', 'é', 'éa'];
  const ranges = new KeyRanges(odd);
  assert.deepEqual(ranges.prefixRange('é'), [1, 3]);
  assert.deepEqual(ranges.exactRange('a'), [0, 1]);
});
