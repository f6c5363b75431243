import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heapObjectsWith } from '../../test/helpers/heap-objects.js';
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

  it('keeps its extent in its buffer, with no number boxed beside it for the collector', async () => {
    const kept = [0.25, 0.5, 0.75].map((d) =>
      preparePolygon(
        polygon([
          [10 + d, 20 + d],
          [11.5 + d, 20 + d],
          [11.5 + d, 21.5 + d],
        ]),
      ),
    );
    assert.deepEqual(
      kept.map((p) => [p.minLon, p.minLat, p.maxLon, p.maxLat, p.centerLon]),
      [0.25, 0.5, 0.75].map((d) => [10 + d, 20 + d, 11.5 + d, 21.5 + d, 10.75 + d]),
    );
    const onHeap = (await heapObjectsWith('coords', 'Float64Array')).filter((o) => o.has('ringStart'));
    assert.ok(onHeap.length >= kept.length, 'the prepared polygons found on the heap');
    for (const o of onHeap)
      assert.ok(![...o.values()].some((ref) => ref.name === 'heap number'), 'a double kept in a field of its own');
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
