import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Position, Ring } from './types.js';
import { ringBBoxes, unwrapRing } from './unwrap-ring.js';

/** `'lon lat, lon lat, …'` to positions: keeps the golden fixtures one line each. */
function positions(text: string): Position[] {
  return text.split(',').map((pair): Position => {
    const [lon, lat] = pair.trim().split(/\s+/).map(Number);
    return [lon!, lat!];
  });
}

const OVER_ANTIMERIDIAN = positions('179 -1, -179 -1, -179 1, 179 1, 179 -1');

describe('unwrapRing', () => {
  const cases: [string, string, string][] = [
    [
      'eastwards over the antimeridian',
      '179 -1, -179 -1, -179 1, 179 1, 179 -1',
      '179 -1, 181 -1, 181 1, 179 1, 179 -1',
    ],
    ['westwards over the antimeridian', '-179 0, 179 0, 179 1, -179 0', '-179 0, -181 0, -181 1, -179 0'],
    ['a ring already in continuous form', '181 0, 179 0, -179 1, 181 0', '181 0, 179 0, 181 1, 181 0'],
    ['an ordinary ring (unchanged)', '10 10, 11 10, 11 11, 10 10', '10 10, 11 10, 11 11, 10 10'],
    ['a polar ring (left unclosed by 360)', '-120 80, 0 80, 120 80, -120 80', '-120 80, 0 80, 120 80, 240 80'],
  ];
  for (const [name, given, expected] of cases) {
    it(`unwraps ${name}, keeping the first longitude`, () => {
      assert.deepEqual(unwrapRing(positions(given)), positions(expected));
    });
  }

  it('does not mutate its input, and returns an empty ring for an empty ring', () => {
    const copy = structuredClone(OVER_ANTIMERIDIAN);
    unwrapRing(OVER_ANTIMERIDIAN);
    assert.deepEqual(OVER_ANTIMERIDIAN, copy);
    assert.deepEqual(unwrapRing([]), []);
  });
});

describe('ringBBoxes', () => {
  it('gives one box for an ordinary ring, including around null island', () => {
    assert.deepEqual(ringBBoxes(positions('-1 -2, 3 -2, 3 4, -1 -2')), [[-1, -2, 3, 4]]);
  });

  it('splits a ring over the antimeridian into an eastern and a western box, in either form', () => {
    const expected = [
      [179, -1, 180, 1],
      [-180, -1, -179, 1],
    ];
    assert.deepEqual(ringBBoxes(OVER_ANTIMERIDIAN), expected);
    assert.deepEqual(ringBBoxes(unwrapRing(OVER_ANTIMERIDIAN)), expected);
    assert.deepEqual(ringBBoxes(positions('-179 -1, -179 1, -181 1, -181 -1, -179 -1')), expected);
  });

  it('adds the zero-width box on the far side for a ring touching the antimeridian', () => {
    assert.deepEqual(ringBBoxes(positions('170 0, 180 0, 180 5, 170 0')), [
      [170, 0, 180, 5],
      [-180, 0, -180, 5],
    ]);
    assert.deepEqual(ringBBoxes(positions('-180 0, -170 0, -180 5, -180 0')), [
      [180, 0, 180, 5],
      [-180, 0, -170, 5],
    ]);
  });

  it('covers every longitude for a polar cap whose longitudes span 360 degrees', () => {
    const cap: Ring = positions('-170 80, -50 80, 70 80, 190 80, 190 90, 70 90, -50 90, -170 90, -170 80');
    assert.deepEqual(ringBBoxes(cap), [[-180, 80, 180, 90]]);
  });

  it('keeps every box within [-180, 180], and gives none for an empty ring', () => {
    for (const box of ringBBoxes(positions('175 60, -160 60, -160 70, 175 60'))) {
      assert.ok(box[0] >= -180 && box[2] <= 180 && box[0] <= box[2], JSON.stringify(box));
    }
    assert.deepEqual(ringBBoxes([]), []);
  });
});
