import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preparedPolygonBBoxes, preparePolygon } from './prepare-polygon.js';
import type { Position } from './types.js';

const polygon = (...rings: Position[][]) => ({ type: 'Polygon' as const, coordinates: rings });

describe('preparePolygon', () => {
  it('closes each ring and keeps positions and ring starts in one buffer', () => {
    const p = preparePolygon(
      polygon(
        [
          [0, 0],
          [2, 0],
          [2, 2],
          [0, 2],
        ],
        [
          [0.5, 0.5],
          [1, 0.5],
          [1, 1],
          [0.5, 0.5],
        ],
      ),
    );
    assert.deepEqual([...p.ringStart], [0, 5, 9]);
    assert.deepEqual([...p.coords.subarray(8, 10)], [0, 0], 'the open outer ring is closed');
    assert.equal(p.coords.buffer, p.ringStart.buffer);
    assert.deepEqual([p.minLon, p.minLat, p.maxLon, p.maxLat], [0, 0, 2, 2]);
  });
});

describe('preparedPolygonBBoxes', () => {
  it('gives one box, two across the antimeridian, none without rings', () => {
    const square = preparePolygon(
      polygon([
        [10, 20],
        [11, 20],
        [11, 21],
        [10, 20],
      ]),
    );
    assert.deepEqual(preparedPolygonBBoxes(square), [[10, 20, 11, 21]]);
    const across = preparePolygon(
      polygon([
        [170, 10],
        [-170, 10],
        [-170, 12],
        [170, 10],
      ]),
    );
    assert.deepEqual(preparedPolygonBBoxes(across), [
      [170, 10, 180, 12],
      [-180, 10, -170, 12],
    ]);
    assert.deepEqual(preparedPolygonBBoxes(preparePolygon(polygon())), []);
  });
});
