import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prefixRange } from './address-layer.js';

test('prefixRange is the run of sorted keys that start with the prefix', () => {
  let seed = 11;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const word = () => {
    let s = '';
    const length = 1 + Math.floor(random() * 6);
    for (let i = 0; i < length; i++) s += 'ab 1'[Math.floor(random() * 4)];
    return s;
  };
  for (let round = 0; round < 200; round++) {
    const keys = Array.from({ length: Math.floor(random() * 300) }, word).sort();
    for (const prefix of ['', 'a', 'ab', 'b 1', '1', 'zz', word(), word(), word()]) {
      const from = keys.findIndex((k) => k >= prefix);
      const count = keys.filter((k) => k.startsWith(prefix)).length;
      const start = from < 0 ? keys.length : from;
      assert.deepEqual(prefixRange(keys, prefix), [start, start + count], `${prefix} in ${keys.length} keys`);
    }
  }
});
