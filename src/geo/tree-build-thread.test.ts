import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Flatbush from 'flatbush';
import { buildTreeHere, type TreeInput } from '../domain/geofences/packed-tree.js';
import { TreeBuildThread } from './tree-build-thread.js';

/** `slots` slots, about one in five empty, and `extras` second boxes near the antimeridian. */
function randomInput(slots: number, extras = 0): TreeInput {
  const boxes = new Float64Array(slots * 4);
  const held = new Uint8Array(slots);
  for (let slot = 0; slot < slots; slot++) {
    const x = -74 + Math.random();
    const y = 40 + Math.random();
    boxes.set([x, y, x + Math.random() * 0.01, y + Math.random() * 0.01], slot * 4);
    held[slot] = Math.random() < 0.8 ? 1 + (slot % 2) : 0;
  }
  const extra = new Float64Array(extras * 5);
  for (let k = 0; k < extras; k++)
    extra.set([Math.floor(Math.random() * slots), -180, k * 1e-3, -179.99, k * 1e-3 + 0.01], k * 5);
  return { boxes, held, extra };
}

const copy = (input: TreeInput): TreeInput => ({
  boxes: input.boxes.slice(),
  held: input.held.slice(),
  extra: input.extra.slice(),
});

describe('TreeBuildThread', () => {
  it('builds on its thread the tree buildTreeHere makes, byte for byte, several at once', async () => {
    const thread = new TreeBuildThread();
    const inputs = [randomInput(20_000), randomInput(3, 2), randomInput(50_000, 40)];
    const expected = inputs.map((input) => buildTreeHere(copy(input))!);
    const built = await Promise.all(inputs.map((input) => thread.build(input)));
    for (const [k, tree] of built.entries()) {
      assert.deepEqual(new Uint8Array(tree.data), new Uint8Array(expected[k]!.data));
      assert.deepEqual(tree.itemSlot, expected[k]!.itemSlot);
    }
    // The input is read, not taken: the index goes on using its arrays.
    assert.equal(inputs[0]!.boxes.length, 80_000);
    assert.equal(Flatbush.from(built[2]!.data).numItems, built[2]!.itemSlot.length);
  });

  it('fails a build it cannot make, and keeps building afterwards', async () => {
    const thread = new TreeBuildThread();
    const empty = { boxes: new Float64Array(0), held: new Uint8Array(0), extra: new Float64Array(0) };
    await assert.rejects(thread.build(empty), /tree build failed/);
    const built = await thread.build(randomInput(10));
    assert.equal(Flatbush.from(built.data).numItems, built.itemSlot.length);
  });
});
