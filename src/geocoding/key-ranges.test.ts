import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NameIndex } from '../geodata/name-index.js';
import { StringColumn } from '../geodata/string-column.js';
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
  const ranges = new KeyRanges(StringColumn.of(odd));
  assert.deepEqual(ranges.prefixRange('é'), [1, 3]);
  assert.deepEqual(ranges.exactRange('a'), [0, 1]);
});

test('KeyRanges agrees with NameIndex past the six characters packed into a key code', () => {
  const long = [
    'saint',
    'saint ann',
    'saint anne',
    'saint annes',
    'saint andrews',
    'saintes',
    'sainte marie',
    'zzzzzzzz',
  ];
  const longIndex = NameIndex.build((add) => {
    for (const [i, k] of long.entries()) add(k, 0, i);
  });
  const ranges = new KeyRanges(longIndex.keys);
  const probes = new Set(['saint a', 'saint anna', 'saint az', 'sainte', 'saintez', 'zzzzzzzzz', 'zzzzzzz']);
  for (const k of long) for (let i = 1; i <= k.length; i++) probes.add(k.slice(0, i));
  for (const p of probes) {
    assert.deepEqual(ranges.prefixRange(p), longIndex.prefixRange(p), `prefix ${JSON.stringify(p)}`);
    assert.deepEqual(ranges.exactRange(p), longIndex.exactRange(p), `exact ${JSON.stringify(p)}`);
    const [from, to] = longIndex.prefixRange(p);
    assert.deepEqual(
      ranges.ranges(p, 2),
      { from, exactTo: longIndex.exactRange(p)[1], prefixTo: Math.min(to, from + 2) },
      p,
    );
  }
});

test('KeyRanges compares strings when a key holds another character within its first six', () => {
  const odd = ['ab-c', 'ab-d', 'abc', 'abcdefg', 'abcdefh'];
  const ranges = new KeyRanges(StringColumn.of(odd));
  assert.deepEqual(ranges.prefixRange('ab-'), [0, 2]);
  assert.deepEqual(ranges.prefixRange('abcdef'), [3, 5]);
  assert.deepEqual(ranges.exactRange('abcdefh'), [4, 5]);
});
