import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grown } from './grown.js';

describe('grown', () => {
  it('copies into a longer array, the rest filled', () => {
    assert.deepEqual([...grown(Int32Array.of(1, 2), 3, -1)], [1, 2, -1, -1]);
    assert.deepEqual([...grown(Int32Array.of(1, 2), 5)], [1, 2, 0, 0, 0]);
  });
});
