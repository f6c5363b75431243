import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bboxAround, bboxesForLonSpan } from './bbox-around.js';
import { destinationPoint } from './distance-meters.js';
import type { BBox, Position } from './types.js';

function inSome(boxes: BBox[], [lon, lat]: Position): boolean {
  return boxes.some(([w, s, e, n]) => lon >= w - 1e-9 && lon <= e + 1e-9 && lat >= s - 1e-9 && lat <= n + 1e-9);
}

describe('bboxAround', () => {
  it('holds every point of the circle, and is tight in latitude', () => {
    for (const center of [
      [0, 0],
      [2.35, 48.85],
      [-70, -60],
    ] as Position[]) {
      const boxes = bboxAround(center, 10_000);
      assert.equal(boxes.length, 1);
      for (let bearing = 0; bearing < 360; bearing += 5) {
        assert.ok(inSome(boxes, destinationPoint(center, bearing, 10_000)), `bearing ${bearing} around ${center}`);
      }
      const [, south, , north] = boxes[0]!;
      assert.ok(Math.abs(north - destinationPoint(center, 0, 10_000)[1]) < 1e-9, 'north edge');
      assert.ok(Math.abs(south - destinationPoint(center, 180, 10_000)[1]) < 1e-9, 'south edge');
    }
  });

  it('is wider than the east-west points at high latitude (tangent meridians)', () => {
    const center: Position = [0, 70];
    const [box] = bboxAround(center, 100_000);
    assert.ok(box![2] > destinationPoint(center, 90, 100_000)[0], 'east edge beyond the due-east point');
  });

  it('splits at the antimeridian, eastern part first', () => {
    const boxes = bboxAround([179.95, 0], 20_000);
    assert.equal(boxes.length, 2);
    assert.equal(boxes[0]![2], 180);
    assert.equal(boxes[1]![0], -180);
    assert.ok(boxes[0]![0] > 179.7 && boxes[1]![2] < -179.8, JSON.stringify(boxes));
    assert.ok(inSome(boxes, destinationPoint([179.95, 0], 90, 20_000)), 'due east, across the line');
  });

  it('covers all longitudes, clamped at the pole, when the circle reaches a pole', () => {
    assert.deepEqual(
      bboxAround([45, 90], 1000).map((b) => [b[0], b[2], b[3]]),
      [[-180, 180, 90]],
    );
    const [south] = bboxAround([10, -89.99], 5000);
    assert.deepEqual([south![0], south![1], south![2]], [-180, -90, 180]);
    assert.ok(south![3] > -89.99 && south![3] < -89.9);
  });

  it('gives the zero-size box of the center for radius 0 and rejects bad radii', () => {
    assert.deepEqual(bboxAround([0, 0], 0), [[0, 0, 0, 0]]);
    assert.throws(() => bboxAround([0, 0], -1), RangeError);
    assert.throws(() => bboxAround([0, 0], Number.POSITIVE_INFINITY), RangeError);
  });
});

describe('bboxesForLonSpan', () => {
  it('shifts unwrapped spans back into range and splits them', () => {
    assert.deepEqual(bboxesForLonSpan(-10, 10, 0, 1), [[-10, 0, 10, 1]]);
    assert.deepEqual(bboxesForLonSpan(350, 355, 0, 1), [[-10, 0, -5, 1]]);
    assert.deepEqual(bboxesForLonSpan(-185, -175, 0, 1), [
      [175, 0, 180, 1],
      [-180, 0, -175, 1],
    ]);
    assert.deepEqual(bboxesForLonSpan(-200, 200, 0, 1), [[-180, 0, 180, 1]]);
    assert.deepEqual(bboxesForLonSpan(Number.NaN, 1, 0, 1), []);
  });
});
