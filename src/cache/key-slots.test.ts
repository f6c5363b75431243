import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heapStringsWith } from '../../test/helpers/heap-objects.js';
import { flat } from './flat-string.js';
import { BLOCK_SLOTS, CELL_CHARS, KeySlots } from './key-slots.js';

describe('KeySlots', () => {
  it('numbers its keys as a Map would, through adds, deletes and reused slots', () => {
    const slots = new KeySlots();
    const model = new Map<string, number>();
    const owners = new Map<number, string>();
    // Keys of every kind: short, a device's (tenant prefix, id at the end), at the cell's length, one
    // past it, and with a character past U+00FF (those two are kept apart).
    const keyOf = (i: number) =>
      i % 7 === 0
        ? `k${i}`
        : i % 11 === 0
          ? `${'x'.repeat(CELL_CHARS - String(i).length)}${i}`
          : i % 13 === 0
            ? `${'y'.repeat(CELL_CHARS + 1 - String(i).length)}${i}`
            : i % 17 === 0
              ? `track:ünïcødé:1:设备-${i}`
              : `track:0123456789abcdef01234567:1:device-${i}`;
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    // Enough keys for several blocks and many rebuilds of every shard, with a third deleted on the way.
    for (let step = 0; step < 3 * BLOCK_SLOTS * 4; step++) {
      const key = keyOf(Math.floor(random() * 2 * BLOCK_SLOTS * 4));
      const slot = slots.get(key);
      assert.equal(slot, model.get(key) ?? -1, `slot of ${key} at step ${step}`);
      if (slot >= 0 && random() < 0.4) {
        slots.delete(slot);
        model.delete(key);
        owners.delete(slot);
      } else if (slot < 0) {
        const taken = slots.add(key);
        assert.equal(owners.get(taken), undefined, 'a slot in use is not given again');
        model.set(key, taken);
        owners.set(taken, key);
      }
    }
    assert.equal(slots.size, model.size);
    for (const [key, slot] of model) assert.equal(slots.get(key), slot, key);
    // Deleted slots are given out again before new ones: the slots stay dense.
    assert.ok(slots.slotCount <= model.size + 4 * BLOCK_SLOTS, `${slots.slotCount} slots for ${model.size} keys`);
    for (const slot of model.values()) assert.ok(slot < slots.slotCount);
  });

  it('tells apart keys with the same characters but another length or case', () => {
    const slots = new KeySlots();
    const a = slots.add('device-1');
    const b = slots.add('device-10');
    const c = slots.add('Device-1');
    const empty = slots.add('');
    assert.deepEqual(
      [slots.get('device-1'), slots.get('device-10'), slots.get('Device-1'), slots.get('')],
      [a, b, c, empty],
    );
    assert.equal(slots.get('device-'), -1);
    slots.delete(b);
    assert.equal(slots.get('device-10'), -1);
    assert.equal(slots.get('device-1'), a);
    slots.delete(b);
    assert.equal(slots.size, 3, 'deleting a free slot again changes nothing');
  });

  it('keeps its keys off the heap', async () => {
    const slots = new KeySlots();
    const marker = `probe${process.pid}x${Date.now()}`;
    // Flat strings (as a snapshot counts them), made in a function of their own and let go: only the
    // slots could keep them.
    const key = (i: number) => flat(`track:0123456789abcdef01234567:1:${marker}-${i}`);
    const addAll = () => {
      for (let i = 0; i < 5000; i++) slots.add(key(i));
    };
    const find = (i: number) => slots.get(key(i));
    addAll();
    assert.equal(find(4321), 4321);
    assert.equal(await heapStringsWith(`:${marker}-`), 0, 'no key is a string on the heap');
  });
});
