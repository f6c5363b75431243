import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setBounded } from './bounded-map.js';

describe('setBounded', () => {
  it('drops the entry inserted first when a new key would pass the bound, and never for an update', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    setBounded(map, 'b', 20, 2);
    assert.deepEqual(
      [...map],
      [
        ['a', 1],
        ['b', 20],
      ],
    );
    setBounded(map, 'c', 3, 2);
    assert.deepEqual(
      [...map],
      [
        ['b', 20],
        ['c', 3],
      ],
    );
  });
});
