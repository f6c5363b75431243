import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findRingContact, findSelfIntersection } from './find-self-intersection.js';
import { contactKind, foldKind } from './segment-contact.js';
import type { Position, Ring } from './types.js';

/** Every pair of edges, the rules written out plainly: what the sweep must agree with. */
function bruteForce(rings: Ring[]): boolean {
  const xs: number[] = [];
  const ys: number[] = [];
  const ringOf: number[] = [];
  const starts: number[] = [];
  rings.forEach((ring, r) => {
    starts.push(xs.length);
    for (const [x, y] of ring) {
      if (xs.length > starts[r]! && xs.at(-1) === x && ys.at(-1) === y) continue;
      xs.push(x);
      ys.push(y);
      ringOf.push(r);
    }
  });
  starts.push(xs.length);
  const fx = Float64Array.from(xs);
  const fy = Float64Array.from(ys);
  const edges = xs.map((_, e) => e).filter((e) => e + 1 < xs.length && ringOf[e] === ringOf[e + 1]);
  for (const i of edges) {
    for (const j of edges) {
      if (j <= i) continue;
      const r = ringOf[i]!;
      const start = starts[r]!;
      const end = starts[r + 1]!;
      const closed = fx[start] === fx[end - 1] && fy[start] === fy[end - 1] && end - start > 1;
      let kind: string | null;
      if (r === ringOf[j] && j === i + 1) kind = foldKind(j, i, j + 1, fx, fy);
      else if (r === ringOf[j] && closed && i === start && j === end - 2) kind = foldKind(i, j, i + 1, fx, fy);
      else kind = contactKind(i, j, fx, fy);
      if (kind !== null) return true;
    }
  }
  return false;
}

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

/** A closed ring of `n` distinct-ish positions on a small grid: many shared lines and vertices. */
function gridRing(next: () => number, n: number, grid: number, dx = 0, dy = 0): Ring {
  const ring: Ring = Array.from(
    { length: n },
    (): Position => [dx + Math.floor(next() * grid), dy + Math.floor(next() * grid)],
  );
  ring.push([ring[0]![0], ring[0]![1]]);
  return ring;
}

function flat(rings: Ring[]): { coords: Float64Array; ringStart: Uint32Array } {
  const coords = Float64Array.from(rings.flat(2));
  const ringStart = Uint32Array.from([0, ...rings.map((_, r) => rings.slice(0, r + 1).flat().length)]);
  return { coords, ringStart };
}

/** A sawtooth whose edges' boxes all overlap: every pair was a candidate for the box test. */
export function sawtooth(positions: number): Ring {
  const teeth = Math.floor((positions - 4) / 2);
  const step = 1e-5;
  const ring: Ring = [];
  for (let i = 0; i < teeth; i++) {
    ring.push([13 + 2 * i * step, 52]);
    ring.push([13.5 + (2 * i + 1) * step, 52.5]);
  }
  const last = ring.at(-1)!;
  ring.push([last[0], 51.9], [13, 51.9], [13, 52]);
  return ring;
}

describe('findSelfIntersection and findRingContact', () => {
  it('agree with a test of every pair on 6,000 random rings full of shared lines and vertices', () => {
    const next = random(7);
    let simple = 0;
    for (let t = 0; t < 6000; t++) {
      const ring = gridRing(next, 3 + Math.floor(next() * 6), 2 + Math.floor(next() * 4));
      const expected = bruteForce([ring]);
      if (!expected) simple++;
      assert.equal(findSelfIntersection(ring) !== null, expected, JSON.stringify(ring));
    }
    assert.ok(simple > 300, `only ${simple} simple rings: the test would not see a missed contact`);
  });

  it('agree on random sets of rings, outer and holes, with vertical and collinear edges', () => {
    const next = random(11);
    let apart = 0;
    for (let t = 0; t < 4000; t++) {
      const rings = Array.from({ length: 2 + Math.floor(next() * 3) }, () =>
        gridRing(next, 3 + Math.floor(next() * 3), 3, Math.floor(next() * 4), Math.floor(next() * 4)),
      );
      const expected = bruteForce(rings);
      if (!expected) apart++;
      const { coords, ringStart } = flat(rings);
      assert.equal(findRingContact(coords, ringStart) !== null, expected, JSON.stringify(rings));
    }
    assert.ok(apart > 100, `only ${apart} sets without contact`);
  });

  it('names the edges and rings where they meet, in the numbering of the input', () => {
    const outer: Ring = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const crossing: Ring = [
      [5, 5],
      [12, 5],
      [12, 6],
      [5, 5],
    ];
    const { coords, ringStart } = flat([outer, crossing]);
    assert.deepEqual(findRingContact(coords, ringStart), {
      firstRing: 0,
      first: 1,
      secondRing: 1,
      second: 0,
      kind: 'cross',
    });
    assert.deepEqual(
      findSelfIntersection([
        [0, 0],
        [1, 1],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
      {
        first: 0,
        second: 3,
        kind: 'cross',
      },
    );
  });

  it('takes a 10,000-position sawtooth in a few milliseconds, and finds the one crossing put in it', (t) => {
    const ring = sawtooth(10_000);
    for (let i = 0; i < 3; i++) assert.equal(findSelfIntersection(ring), null);
    const started = performance.now();
    assert.equal(findSelfIntersection(ring), null);
    t.diagnostic(`sawtooth of 10,000 positions: ${(performance.now() - started).toFixed(1)} ms`);
    // The last tooth reaches back across the first: one crossing among 50 million pairs of edges.
    const broken = ring.slice();
    broken[broken.length - 4] = [12.9, 52.5];
    assert.notEqual(findSelfIntersection(broken), null);
  });
});
