import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedMutex } from './keyed-mutex.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedMutex', () => {
  it('runs holders of one key one at a time, in arrival order', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const run = async (name: string) => {
      const release = await mutex.lock(['k']);
      log.push(`${name} in`);
      await tick();
      log.push(`${name} out`);
      release();
    };
    await Promise.all([run('a'), run('b'), run('c')]);
    assert.deepEqual(log, ['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });

  it('lets different keys proceed together', async () => {
    const mutex = new KeyedMutex();
    const a = await mutex.lock(['a']);
    const b = await Promise.race([mutex.lock(['b']), tick().then(() => null)]);
    assert.ok(b, 'b must not wait for a');
    a();
    b();
  });

  it('takes overlapping key sets in sorted order, so crossed requests all finish', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const run = async (keys: string[], name: string) => {
      const release = await mutex.lock(keys);
      order.push(name);
      await tick();
      release();
    };
    await Promise.all([run(['x', 'y'], 'first'), run(['y', 'x'], 'second'), run(['y'], 'third')]);
    assert.deepEqual([...order].sort(), ['first', 'second', 'third']);
  });

  it('releases once however often release is called', async () => {
    const mutex = new KeyedMutex();
    const release = await mutex.lock(['k']);
    release();
    release();
    const again = await mutex.lock(['k']);
    const waiter = mutex.lock(['k']);
    const raced = await Promise.race([waiter, tick().then(() => 'waiting')]);
    assert.equal(raced, 'waiting');
    again();
    (await waiter)();
  });

  it('isHeld tells whether a lock call would wait, until the last holder releases', async () => {
    const mutex = new KeyedMutex();
    assert.equal(mutex.isHeld('k'), false);
    const first = await mutex.lock(['k']);
    assert.equal(mutex.isHeld('k'), true);
    const second = mutex.lock(['k']);
    first();
    assert.equal(mutex.isHeld('k'), true, 'the waiter holds it next');
    (await second)();
    assert.equal(mutex.isHeld('k'), false);
  });

  it('takes a free set of keys at once, and a caller that finds one held waits for all of it', async () => {
    const mutex = new KeyedMutex();
    const first = mutex.lock(['b', 'a']);
    assert.equal(mutex.isHeld('a') && mutex.isHeld('b'), true, 'both taken before the first await');
    const second = mutex.lock(['a', 'c']);
    const raced = await Promise.race([second, tick().then(() => 'waiting')]);
    assert.equal(raced, 'waiting');
    (await first)();
    (await second)();
    assert.equal(mutex.isHeld('a') || mutex.isHeld('b') || mutex.isHeld('c'), false);
  });
});
