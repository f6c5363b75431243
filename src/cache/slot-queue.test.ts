import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlotQueue } from './slot-queue.js';

describe('SlotQueue', () => {
  it('gives slots back oldest first, without those dropped, through reuse, compaction and growth', () => {
    const queue = new SlotQueue(8);
    // The model: queued slots in order; slots are reused once shifted or dropped, as KeySlots does.
    let model: number[] = [];
    const free: number[] = [];
    let next = 0;
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed % 1000) / 1000;
    };
    for (let step = 0; step < 20_000; step++) {
      const r = random();
      // Mostly pushes and drops (stale entries pile up), the queue held between ~0 and ~300 slots.
      if (r < 0.45 || model.length === 0) {
        const slot = free.pop() ?? next++;
        queue.push(slot);
        model.push(slot);
      } else if (r < 0.8) {
        const slot = model.splice(Math.floor(random() * model.length), 1)[0]!;
        queue.drop(slot);
        free.push(slot);
      } else if (r < 0.9995) {
        const slot = queue.shift();
        assert.equal(slot, model.shift(), `step ${step}`);
        free.push(slot);
      } else {
        queue.clear();
        free.push(...model);
        model = [];
      }
      assert.equal(queue.size, model.length);
    }
    for (const slot of model) assert.equal(queue.shift(), slot);
    assert.equal(queue.shift(), -1);
  });

  it('holds no more entries than twice its live slots, however many were dropped', () => {
    const queue = new SlotQueue(4);
    // One slot pushed and dropped a million times: without compaction, a million stale entries.
    for (let i = 0; i < 1_000_000; i++) {
      queue.push(0);
      queue.drop(0);
    }
    queue.push(1);
    assert.equal(queue.shift(), 1);
    assert.equal(queue.shift(), -1);
    assert.ok(queue.room <= 16, `room for ${queue.room} entries`);
  });
});
