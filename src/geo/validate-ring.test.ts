import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ring } from './types.js';
import { validateRing } from './validate-ring.js';

const SQUARE: Ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];

function reasonOf(input: unknown): string {
  const result = validateRing(input);
  assert.equal(result.ok, false, `expected a rejection of ${JSON.stringify(input).slice(0, 80)}`);
  return result.ok ? '' : result.reason;
}

describe('validateRing: golden rejections', () => {
  const cases: [string, unknown, string][] = [
    ['not an array', { lon: 1 }, 'must be an array of [longitude,latitude] pairs'],
    [
      'too short',
      [
        [0, 0],
        [1, 1],
        [0, 0],
      ],
      'must have between 4 and 10000 positions',
    ],
    ['too long', Array.from({ length: 10_001 }, () => [0, 0]), 'must have between 4 and 10000 positions'],
    [
      'a string position',
      [[0, 0], '1,0', [1, 1], [0, 0]],
      'must be an array of [longitude,latitude] pairs (position 1 is not)',
    ],
    [
      'a lone number',
      [[0, 0], [1], [1, 1], [0, 0]],
      'must be an array of [longitude,latitude] pairs (position 1 is not)',
    ],
    [
      'a numeric string',
      [
        [0, 0],
        [1, '0'],
        [1, 1],
        [0, 0],
      ],
      'must be an array of [longitude,latitude] pairs (position 1 is not)',
    ],
    [
      'four numbers',
      [
        [0, 0],
        [1, 0, 0, 0],
        [1, 1],
        [0, 0],
      ],
      'must be an array of [longitude,latitude] pairs (position 1 is not)',
    ],
    [
      'NaN',
      [
        [0, 0],
        [Number.NaN, 0],
        [1, 1],
        [0, 0],
      ],
      'must be an array of [longitude,latitude] pairs (position 1 is not)',
    ],
    [
      'longitude 180.5',
      [
        [0, 0],
        [1, 0],
        [180.5, 1],
        [0, 0],
      ],
      'has a longitude out of range at position 2 (must be between -180 and 180)',
    ],
    [
      'latitude -91',
      [
        [0, 0],
        [1, -91],
        [1, 1],
        [0, 0],
      ],
      'has a latitude out of range at position 1 (must be between -90 and 90)',
    ],
    ['unclosed', SQUARE.slice(0, 4).concat([[0, 0.5]]), 'must be closed (the first position must equal the last)'],
    [
      'two distinct positions',
      [
        [0, 0],
        [1, 1],
        [0, 0],
        [1, 1],
        [0, 0],
      ],
      'must have at least 3 distinct positions',
    ],
    [
      'bow-tie',
      [
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ],
      'must not intersect itself (edges 0 and 2 cross)',
    ],
    [
      'a figure of eight through one vertex',
      [
        [0, 0],
        [1, 1],
        [2, 0],
        [2, 2],
        [1, 1],
        [0, 2],
        [0, 0],
      ],
      'must not intersect itself (edges 0 and 3 touch)',
    ],
    [
      'non-adjacent collinear overlap',
      [
        [0, 0],
        [4, 0],
        [4, 1],
        [6, 1],
        [6, 0],
        [5, 0],
        [3, 0],
        [3, -1],
        [0, -1],
        [0, 0],
      ],
      'must not intersect itself (edges 0 and 5 overlap)',
    ],
    [
      'a spike folding back',
      [
        [0, 0],
        [2, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ],
      'must not intersect itself (edges 0 and 1 overlap)',
    ],
    [
      'zero area',
      [
        [0, 0],
        [1, 0],
        [2, 0],
        [0, 0],
      ],
      'must not intersect itself (edges 0 and 2 overlap)',
    ],
    [
      'winding around the pole',
      [
        [-120, 80],
        [0, 80],
        [120, 80],
        [-120, 80],
      ],
      'must not go around a pole (its longitudes wind through 360 degrees)',
    ],
  ];
  for (const [name, input, reason] of cases) {
    it(`rejects ${name}`, () => assert.equal(reasonOf(input), reason));
  }
});

describe('validateRing: acceptances', () => {
  it('accepts a closed square and returns it unchanged', () => {
    assert.deepEqual(validateRing(SQUARE), { ok: true, ring: SQUARE });
    const clockwise = [...SQUARE].reverse();
    assert.deepEqual(validateRing(clockwise), { ok: true, ring: clockwise });
  });

  it('drops an altitude', () => {
    const result = validateRing(SQUARE.map(([lon, lat]) => [lon, lat, 12.5]));
    assert.deepEqual(result, { ok: true, ring: SQUARE });
  });

  it('accepts the exact bounds of the coordinate ranges', () => {
    const edge: Ring = [
      [-180, -90],
      [180, -90],
      [180, 90],
      [-180, 90],
      [-180, -90],
    ];
    assert.equal(
      validateRing([
        [170, -90],
        [180, -90],
        [180, 90],
        [170, 90],
        [170, -90],
      ]).ok,
      true,
    );
    // Every step of 360° is the same meridian, so the whole-world box folds onto one line.
    assert.match(reasonOf(edge), /^must not intersect itself/);
  });

  it('accepts a ring over the antimeridian given in -180..180 form', () => {
    const fence: Ring = [
      [179, -1],
      [-179, -1],
      [-179, 1],
      [179, 1],
      [179, -1],
    ];
    assert.deepEqual(validateRing(fence), { ok: true, ring: fence });
    const bowTieOverAntimeridian: Ring = [
      [179, -1],
      [-179, 1],
      [-179, -1],
      [179, 1],
      [179, -1],
    ];
    assert.equal(reasonOf(bowTieOverAntimeridian), 'must not intersect itself (edges 0 and 2 cross)');
  });

  it('accepts consecutive duplicate positions', () => {
    const ring: Ring = [
      [0, 0],
      [1, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
      [0, 0],
    ];
    assert.equal(validateRing(ring).ok, true);
  });

  it('accepts a triangle touching null island', () => {
    assert.equal(
      validateRing([
        [0, 0],
        [0.001, 0],
        [0, 0.001],
        [0, 0],
      ]).ok,
      true,
    );
  });

  it('validates a 10,000-position circle-like ring in well under 100 ms, and finds one crossing in it', () => {
    const ellipse = (n: number): Ring => {
      const ring: Ring = Array.from({ length: n - 1 }, (_, i) => {
        const a = (2 * Math.PI * i) / (n - 1);
        return [13.4 + 0.05 * Math.cos(a), 52.5 + 0.03 * Math.sin(a)];
      });
      return [...ring, ring[0]!];
    };
    // Warm the JIT on a smaller ring, so the timing measures the algorithm as a running server sees it.
    assert.equal(validateRing(ellipse(2000)).ok, true);
    const ring = ellipse(10_000);
    const started = performance.now();
    const result = validateRing(ring);
    const elapsed = performance.now() - started;
    assert.equal(result.ok, true);
    assert.ok(elapsed < 50, `took ${elapsed.toFixed(1)} ms`);
    const broken = ring.slice();
    [broken[5000], broken[5001]] = [broken[5001]!, broken[5000]!];
    assert.equal(reasonOf(broken), 'must not intersect itself (edges 4999 and 5001 cross)');
  });
});
