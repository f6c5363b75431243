import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ShardedMap } from './sharded-map.js';

const keys = Array.from({ length: 2000 }, (_, i) => `0123456789abcdef01234567:live:d:device-${i}`);

describe('ShardedMap', () => {
  it('reads, writes and deletes as one Map, spread over its shards', () => {
    const m = new ShardedMap<number>(16);
    for (const [i, k] of keys.entries()) m.set(k, i);
    assert.equal(m.size, keys.length);
    assert.equal(m.get(keys[1234]!), 1234);
    assert.equal(m.has('0123456789abcdef01234567:live:d:device-2000'), false);
    assert.equal(m.delete(keys[7]!), true);
    assert.equal(m.get(keys[7]!), undefined);
    assert.equal(m.size, keys.length - 1);
    assert.deepEqual(new Set([...m].map(([, v]) => v)).size, keys.length - 1, 'iteration visits every entry once');
    // Keys that differ only at the end still spread: every shard holds a share.
    for (let s = 0; s < m.shardCount; s++) assert.ok(m.shard(s).size > keys.length / 16 / 2, `shard ${s} underused`);
    m.clear();
    assert.equal(m.size, 0);
  });

  it('puts a key in the same shard of every map of as many shards', () => {
    const a = new ShardedMap<string>(8);
    const b = new ShardedMap<number>(8);
    for (const k of keys.slice(0, 200)) {
      a.set(k, k);
      assert.equal(b.indexOf(k), a.indexOf(k));
      assert.equal(a.shard(b.indexOf(k)).get(k), k);
    }
  });

  it('rounds its shard count down to a power of two, one at least', () => {
    assert.equal(new ShardedMap(100).shardCount, 64);
    assert.equal(new ShardedMap(0).shardCount, 1);
    assert.equal(new ShardedMap(1).indexOf('anything'), 0);
  });
});
