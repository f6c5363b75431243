import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Position, Ring } from './types.js';
import { validateRing } from './validate-ring.js';

/** `'lon lat, lon lat, …'` to positions: keeps the golden fixtures one line each. */
function positions(text: string): Position[] {
  return text.split(',').map((pair): Position => {
    const [lon, lat] = pair.trim().split(/\s+/).map(Number);
    return [lon!, lat!];
  });
}

const SQUARE = positions('0 0, 1 0, 1 1, 0 1, 0 0');
const PAIRS = 'must be an array of [longitude,latitude] pairs';

function reasonOf(input: unknown): string {
  const result = validateRing(input);
  assert.equal(result.ok, false, `expected a rejection of ${JSON.stringify(input).slice(0, 80)}`);
  return result.ok ? '' : result.reason;
}

/** A ring whose second position is `bad`. */
function withSecond(bad: unknown): unknown[] {
  return [[0, 0], bad, [1, 1], [0, 0]];
}

describe('validateRing: golden rejections', () => {
  const cases: [string, unknown, string][] = [
    ['not an array', { lon: 1 }, PAIRS],
    ['too short', positions('0 0, 1 1, 0 0'), 'must have between 4 and 10000 positions'],
    ['too long', Array.from({ length: 10_001 }, () => [0, 0]), 'must have between 4 and 10000 positions'],
    ['a string position', withSecond('1,0'), `${PAIRS} (position 1 is not)`],
    ['a lone number', withSecond([1]), `${PAIRS} (position 1 is not)`],
    ['a numeric string', withSecond([1, '0']), `${PAIRS} (position 1 is not)`],
    ['four numbers', withSecond([1, 0, 0, 0]), `${PAIRS} (position 1 is not)`],
    ['NaN', withSecond([Number.NaN, 0]), `${PAIRS} (position 1 is not)`],
    [
      'longitude 180.5',
      positions('0 0, 1 0, 180.5 1, 0 0'),
      'has a longitude out of range at position 2 (must be between -180 and 180)',
    ],
    [
      'latitude -91',
      positions('0 0, 1 -91, 1 1, 0 0'),
      'has a latitude out of range at position 1 (must be between -90 and 90)',
    ],
    ['unclosed', positions('0 0, 1 0, 1 1, 0 1, 0 0.5'), 'must be closed (the first position must equal the last)'],
    ['two distinct positions', positions('0 0, 1 1, 0 0, 1 1, 0 0'), 'must have at least 3 distinct positions'],
    ['a bow-tie', positions('0 0, 1 1, 1 0, 0 1, 0 0'), 'must not intersect itself (edges 0 and 2 cross)'],
    [
      'a figure of eight through one vertex',
      positions('0 0, 1 1, 2 0, 2 2, 1 1, 0 2, 0 0'),
      'must not intersect itself (edges 0 and 4 touch)',
    ],
    [
      'a vertex resting on another edge',
      positions('0 0, 4 0, 4 4, 2 0.000001, 2 0, 0 4, 0 0'),
      'must not intersect itself (edges 0 and 4 touch)',
    ],
    [
      'non-adjacent collinear overlap',
      positions('0 0, 4 0, 4 1, 6 1, 6 0, 5 0, 3 0, 3 -1, 0 -1, 0 0'),
      // Edge 5 overlaps edge 0, and edge 6 starts on it: the sweep comes to the touch first.
      'must not intersect itself (edges 0 and 6 touch)',
    ],
    ['a spike folding back', positions('0 0, 2 0, 1 0, 1 1, 0 0'), 'must not intersect itself (edges 0 and 1 overlap)'],
    ['zero area', positions('0 0, 1 0, 2 0, 0 0'), 'must not intersect itself (edges 0 and 2 overlap)'],
    [
      'a bow-tie over the antimeridian',
      positions('179 -1, -179 1, -179 -1, 179 1, 179 -1'),
      'must not intersect itself (edges 0 and 2 cross)',
    ],
    [
      'winding around the pole',
      positions('-120 80, 0 80, 120 80, -120 80'),
      'must not go around a pole (its longitudes wind through 360 degrees)',
    ],
  ];
  for (const [name, input, reason] of cases) {
    it(`rejects ${name}`, () => assert.equal(reasonOf(input), reason));
  }
});

describe('validateRing: acceptances', () => {
  it('accepts a closed square in either winding order and returns it unchanged', () => {
    assert.deepEqual(validateRing(SQUARE), { ok: true, ring: SQUARE });
    const clockwise = [...SQUARE].reverse();
    assert.deepEqual(validateRing(clockwise), { ok: true, ring: clockwise });
  });

  it('drops an altitude', () => {
    assert.deepEqual(validateRing(SQUARE.map(([lon, lat]) => [lon, lat, 12.5])), { ok: true, ring: SQUARE });
  });

  it('accepts the exact bounds of the coordinate ranges, but not a whole-world box', () => {
    assert.equal(validateRing(positions('170 -90, 180 -90, 180 90, 170 90, 170 -90')).ok, true);
    // Every step of 360° is the same meridian, so the whole-world box folds onto one line.
    assert.match(reasonOf(positions('-180 -90, 180 -90, 180 90, -180 90, -180 -90')), /^must not intersect itself/);
  });

  it('accepts a ring over the antimeridian given in -180..180 form, unchanged', () => {
    const fence = positions('179 -1, -179 -1, -179 1, 179 1, 179 -1');
    assert.deepEqual(validateRing(fence), { ok: true, ring: fence });
  });

  it('accepts consecutive duplicate positions, and a triangle at null island', () => {
    assert.equal(validateRing(positions('0 0, 1 0, 1 0, 1 1, 0 1, 0 0, 0 0')).ok, true);
    assert.equal(validateRing(positions('0 0, 0.001 0, 0 0.001, 0 0')).ok, true);
  });

  it('validates a 10,000-position circle-like ring, and finds the one crossing in it', (t) => {
    const ellipse = (n: number): Ring => {
      const ring: Ring = Array.from({ length: n - 1 }, (_, i) => {
        const a = (2 * Math.PI * i) / (n - 1);
        return [13.4 + 0.05 * Math.cos(a), 52.5 + 0.03 * Math.sin(a)];
      });
      return [...ring, ring[0]!];
    };
    // Warm the JIT on another ring first: the timing is of the algorithm as a running server sees it
    // (a first, interpreted call here takes ~100 ms; a quadratic check would take seconds either way).
    const warmUp = ellipse(9_000);
    for (let i = 0; i < 3; i++) assert.equal(validateRing(warmUp).ok, true);
    const ring = ellipse(10_000);
    const started = performance.now();
    const result = validateRing(ring);
    const elapsed = performance.now() - started;
    assert.equal(result.ok, true);
    // Timing is for `npm run bench`, not a test: reported here, asserted nowhere.
    t.diagnostic(`validateRing on 10,000 positions: ${elapsed.toFixed(1)} ms`);
    const broken = ring.slice();
    [broken[5000], broken[5001]] = [broken[5001]!, broken[5000]!];
    assert.equal(reasonOf(broken), 'must not intersect itself (edges 4999 and 5001 cross)');
  });
});
