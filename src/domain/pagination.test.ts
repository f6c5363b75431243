import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutPage, type Page, type PageQuery, readInTurns } from './pagination.js';

/** Pages of `times` (sorted newest first) as a store cuts them: `limit + 1` rows, then `cutPage`. */
function reader(times: number[]) {
  let reads = 0;
  const read = async (q: PageQuery): Promise<Page<number>> => {
    reads++;
    const rows = times.filter(
      (t) => (q.before === undefined || t < q.before) && (q.after === undefined || t > q.after),
    );
    const last = rows[q.limit];
    // As the stores do: when the page is one run of equal times, the whole run and one more row.
    const take = last !== undefined && rows[0] === last ? rows.filter((t) => t >= last).length + 1 : q.limit + 1;
    return cutPage(rows.slice(0, take), q.limit, (t) => t);
  };
  return { read, reads: () => reads };
}

describe('readInTurns', () => {
  it('gives the page one read gives, whatever runs of equal times cross its parts', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let severalParts = 0;
    for (let round = 0; round < 300; round++) {
      // Newest first, with runs of equal times from 1 to 40 long.
      const times: number[] = [];
      let t = 100_000;
      while (times.length < 400) {
        const run = 1 + Math.floor(random() ** 3 * 40);
        for (let i = 0; i < run; i++) times.push(t);
        t -= 1 + Math.floor(random() * 3);
      }
      const limit = 1 + Math.floor(random() * 420);
      const before = random() < 0.3 ? times[Math.floor(random() * 100)] : undefined;
      const after = random() < 0.3 ? times[300 + Math.floor(random() * 100)] : undefined;
      const q = { limit, before, after };
      const whole = await reader(times).read(q);
      const parted = reader(times);
      const inTurns = await readInTurns(parted.read, q, (x) => x, 10);
      assert.deepEqual(inTurns, whole, JSON.stringify(q));
      if (parted.reads() > 1) severalParts++;
    }
    // Most rounds were read in several parts (a long first run can fill a page alone).
    assert.ok(severalParts > 200, `${severalParts} of 300`);
  });
});

describe('readInTurns part sizes', () => {
  const times = Array.from({ length: 200 }, (_, i) => 1_000_000 - i);
  /** `reader(times)` whose reads take `msPerItem` on the event loop, as a synchronous store's do. */
  const slowReader = (msPerItem: number) => {
    const parted = reader(times);
    const parts: number[] = [];
    const read = async (q: PageQuery) => {
      const page = await parted.read(q);
      const until = performance.now() + msPerItem * page.items.length;
      while (performance.now() < until);
      parts.push(page.items.length);
      return page;
    };
    return { read, parts };
  };

  it('keeps parts of costly items small, so no part holds the loop long', async () => {
    const { read, parts } = slowReader(4);
    const page = await readInTurns(read, { limit: 30 }, (x) => x, 10);
    assert.equal(page.items.length, 30);
    // A part of 4 ms items doubles only while it takes under 5 ms.
    assert.ok(Math.max(...parts) <= 2, parts.join(','));
  });

  it('grows parts of cheap items up to the size given', async () => {
    const { read, parts } = slowReader(0);
    const page = await readInTurns(read, { limit: 150 }, (x) => x, 50);
    assert.equal(page.items.length, 150);
    assert.equal(Math.max(...parts), 50, parts.join(','));
    assert.ok(parts.length <= 9, parts.join(','));
  });
});
