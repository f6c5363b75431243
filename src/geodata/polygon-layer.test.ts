import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Position } from '../geo/types.js';
import { encodePolygons, readPolygonFile, writePolygonFile } from './polygon-file.js';
import { PolygonLayer } from './polygon-layer.js';

const square = (x0: number, y0: number, size: number): Position[] => [
  [x0, y0],
  [x0 + size, y0],
  [x0 + size, y0 + size],
  [x0, y0 + size],
  [x0, y0],
];

// A ring of n vertices around (cx, cy): above the threshold that gives a part its own edge index.
const circle = (cx: number, cy: number, r: number, n: number): Position[] =>
  Array.from({ length: n + 1 }, (_, i) => [
    cx + r * Math.cos((2 * Math.PI * i) / n),
    cy + r * Math.sin((2 * Math.PI * i) / n),
  ]);

test('holes, multipolygons and enclaves', () => {
  const layer = new PolygonLayer(
    encodePolygons([
      [square(0, 0, 10), square(4, 4, 2)], // feature 0: a square with a hole
      [[square(20, 0, 1)], [square(30, 0, 1)]], // feature 1: two islands
      [square(4.5, 4.5, 1)], // feature 2: an enclave inside feature 0's hole
    ]),
    3,
  );
  assert.equal(layer.find(1, 1), 0);
  assert.equal(layer.find(4.2, 4.2), -1, 'in the hole');
  assert.equal(layer.find(5, 5), 2, 'the enclave');
  assert.equal(layer.find(20.5, 0.5), 1);
  assert.equal(layer.find(30.5, 0.5), 1);
  assert.equal(layer.find(25, 0.5), -1, 'between the islands');
  assert.equal(layer.find(-1, -1), -1);
});

test('a ring with thousands of vertices answers like a plain ray cast', () => {
  const layer = new PolygonLayer(encodePolygons([[circle(0, 0, 1, 5000), circle(0, 0, 0.5, 3000)]]), 1);
  assert.equal(layer.find(0.75, 0), 0);
  assert.equal(layer.find(0, -0.99), 0);
  assert.equal(layer.find(0, 0), -1, 'inside the round hole');
  assert.equal(layer.find(1.01, 0), -1);
  assert.equal(layer.find(0.7072, 0.7072), -1, 'just outside the rim');
  assert.equal(layer.find(0.7, 0.7), 0, 'just inside the rim');
});

test('open rings are closed, and polygon files round-trip', async () => {
  const open = square(0, 0, 1).slice(0, 4);
  const set = encodePolygons([[open], []]);
  assert.equal(set.coords.length, 10, 'the first vertex repeated at the end');
  assert.equal(set.partFeature.length, 1, 'an empty geometry has no parts');
  const dir = await mkdtemp(join(tmpdir(), 'whereabouts-polygons-'));
  try {
    await writePolygonFile(join(dir, 'p.bin'), set);
    const back = await readPolygonFile(join(dir, 'p.bin'));
    assert.deepEqual(back, set);
    assert.equal(new PolygonLayer(back, 2).find(0.5, 0.5), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an empty layer finds nothing', () => {
  assert.equal(new PolygonLayer(encodePolygons([]), 0).find(0, 0), -1);
});
