import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectTop } from './name-matches.js';
import { typoVariants } from './typo-variants.js';

test('typo variants are one edit away', () => {
  const v = typoVariants('hnolulu');
  assert.ok(v.has('honolulu'), 'insertion');
  assert.ok(v.has('nholulu'), 'transposition');
  assert.ok(v.has('hnolulo'), 'substitution');
  assert.ok(v.has('nolulu'), 'deletion');
  assert.ok(!v.has('hnolulu'));
});

test('selectTop puts the best slice first, sorted, whatever the input order', () => {
  for (let round = 0; round < 50; round++) {
    const n = 1 + Math.floor(Math.random() * 300);
    const scores = Array.from({ length: n }, () => Math.floor(Math.random() * 20));
    const order = Uint32Array.from(scores.keys());
    const k = Math.floor(Math.random() * n);
    selectTop(order, scores, 0, k);
    const expected = [...scores].sort((a, b) => b - a).slice(0, k);
    assert.deepEqual(
      Array.from(order.subarray(0, k), (i) => scores[i]),
      expected,
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      [...scores.keys()],
      'a permutation',
    );
  }
});
