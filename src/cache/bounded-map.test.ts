import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getRecent, setBounded, takeOldest } from './bounded-map.js';

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

describe('setBounded over many evictions', () => {
  it('always drops the oldest live entry, with deletions, re-insertions and clears between', () => {
    const map = new Map<number, number>();
    const order: number[] = [];
    const drop = (k: number) => {
      const i = order.indexOf(k);
      if (i >= 0) order.splice(i, 1);
    };
    for (let k = 0; k < 5000; k++) {
      if (k % 7 === 3) {
        map.delete(k - 2);
        drop(k - 2);
      }
      if (k % 11 === 5 && map.has(k - 4)) {
        // Kept recent: deleted and set again, so it is now the newest.
        map.delete(k - 4);
        drop(k - 4);
        setBounded(map, k - 4, 0, 100);
        order.push(k - 4);
      }
      if (k === 2500) {
        map.clear();
        order.length = 0;
      }
      if (map.size >= 100 && !map.has(k)) order.shift();
      setBounded(map, k, k, 100);
      order.push(k);
      assert.deepEqual([...map.keys()], order);
    }
  });
});

describe('getRecent', () => {
  it('returns the value and makes it the newest, so eviction takes it last', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    assert.equal(getRecent(map, 'a'), 1);
    assert.equal(getRecent(map, 'z'), undefined);
    setBounded(map, 'c', 3, 2);
    assert.deepEqual([...map.keys()], ['a', 'c']);
  });
});

describe('takeOldest', () => {
  it('removes and returns the entry inserted first, through deletes and evictions in between', () => {
    const map = new Map<string, number>();
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) map.set(k, i);
    assert.deepEqual(takeOldest(map), ['a', 0]);
    map.delete('b');
    setBounded(map, 'e', 4, 3);
    assert.deepEqual(takeOldest(map), ['c', 2]);
    setBounded(map, 'f', 5, 3);
    assert.deepEqual([...map.keys()], ['d', 'e', 'f']);
    assert.deepEqual(takeOldest(map), ['d', 3]);
    map.clear();
    assert.equal(takeOldest(map), undefined);
  });
});
