import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LivePack } from './live-pack.js';
import { copyOfSharedTestPack, type TestPack } from './test-pack.js';

let copy: TestPack;
before(async () => {
  copy = await copyOfSharedTestPack();
});
after(() => copy?.remove());

test('without a built pack there is none, and the reason says how to build one', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'whereabouts-nopack-'));
  try {
    const live = new LivePack(empty);
    assert.equal(await live.load(), null);
    assert.equal(live.current(), null);
    assert.match(live.unavailableReason(), /no geodata pack in .*import world/);
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});

test('a reload that fails keeps serving the pack that worked', async () => {
  const prepared: unknown[] = [];
  const live = new LivePack(copy.dataDir, { prepare: (p) => prepared.push(p) });
  const first = await live.load();
  assert.ok(first);
  assert.deepEqual(prepared, [first], 'each opened pack is prepared before it is served');
  const dma = join(copy.dataDir, 'pack', 'dma');
  await mkdir(dma, { recursive: true });
  await writeFile(join(dma, 'manifest.json'), '{ not json');
  await assert.rejects(live.reload());
  assert.equal(live.current(), first);
  await rm(dma, { recursive: true, force: true });
  await live.reload();
  assert.ok(live.current() && live.current() !== first, 'a good reload swaps the new pack in');
});
