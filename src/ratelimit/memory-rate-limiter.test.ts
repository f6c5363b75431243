import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { heapStringsWith } from '../../test/helpers/heap-objects.js';
import { poll } from '../../test/helpers/poll.js';
import { flat } from '../cache/flat-string.js';
import { MAX_RULES_PER_KEY, MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateRule } from './rate-limiter.js';

const DAY = 86_400_000;
const device: RateRule[] = [
  { windowMs: 1000, max: 1, label: 'second' },
  { windowMs: 3_600_000, max: 3, label: 'hour' },
  { windowMs: DAY, max: 5, label: 'day' },
];

describe('MemoryRateLimiter', () => {
  const limiters: MemoryRateLimiter[] = [];
  const limiter = (sweepEveryMs?: number) => {
    const l = new MemoryRateLimiter(sweepEveryMs);
    limiters.push(l);
    return l;
  };
  after(async () => {
    for (const l of limiters) await l.close();
  });

  it('counts each window from the key’s first request, and a refusal consumes nothing', () => {
    const l = limiter();
    const t0 = 1_700_000_000_000;
    assert.deepEqual(l.consume('d', device, t0), { allowed: true, rule: device[0], remaining: 0, resetMs: 1000 });
    const refused = l.consume('d', device, t0 + 999);
    assert.deepEqual(refused, { allowed: false, rule: device[0], remaining: 0, resetMs: 1 });
    // The refusal took nothing from the hour: two more fit, a second apart, then the hour refuses.
    assert.equal(l.consume('d', device, t0 + 1000).allowed, true);
    // The hour's last: the second (first of the rules as close to refusing) is the one reported.
    const third = l.consume('d', device, t0 + 2000);
    assert.deepEqual(third, { allowed: true, rule: device[0], remaining: 0, resetMs: 1000 });
    const hourFull = l.consume('d', device, t0 + 3000);
    assert.deepEqual(hourFull, { allowed: false, rule: device[1], remaining: 0, resetMs: 3_600_000 - 3000 });
    // A new hour: the day takes two more, then refuses until the day is over.
    assert.equal(l.consume('d', device, t0 + 3_600_000).allowed, true);
    assert.equal(l.consume('d', device, t0 + 3_601_000).allowed, true);
    const dayFull = l.consume('d', device, t0 + 3_602_000);
    assert.deepEqual(dayFull, { allowed: false, rule: device[2], remaining: 0, resetMs: DAY - 3_602_000 });
    // Another key is counted apart.
    assert.equal(l.consume('e', device, t0 + 999).allowed, true);
  });

  it('starts a key afresh when its limit has another number of rules', () => {
    const l = limiter();
    const one: RateRule[] = [{ windowMs: 1000, max: 1, label: 'one' }];
    assert.equal(l.consume('k', one, 0).allowed, true);
    assert.equal(l.consume('k', one, 10).allowed, false);
    assert.equal(l.consume('k', device, 20).allowed, true);
    assert.throws(
      () =>
        l.consume(
          'k',
          Array.from({ length: MAX_RULES_PER_KEY + 1 }, () => one[0]!),
          30,
        ),
      /1 to 4 rules; this one has 5/,
    );
    assert.throws(() => l.consume('none', [], 40), /1 to 4 rules; this one has 0/);
    assert.equal(l.size, 1, 'a refused limit keeps no key');
  });

  it('keeps thousands of keys apart, forgets those idle for a day and reuses their room', () => {
    const l = limiter();
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 5000; i++) assert.equal(l.consume(`k${i}`, device, t0 + i).allowed, true, `k${i}`);
    for (let i = 0; i < 5000; i += 997) assert.equal(l.consume(`k${i}`, device, t0 + 6000).allowed, true);
    assert.equal(l.consume('k1', device, t0 + 5000).allowed, true);
    assert.equal(l.consume('k1', device, t0 + 5500).allowed, false);
    // Keys past the first 4,096 sit in a second block of slots, and count apart as well.
    assert.equal(l.consume('k4500', device, t0 + 5000).allowed, false);
    assert.equal(l.consume('k4501', device, t0 + 5501).allowed, true);
    // A day after k0..k2999 opened their windows they go, but for the five of them that opened one
    // again later (k0, k1, k997, k1994, k2991); k3000 on are younger and stay.
    l.sweep(t0 + DAY + 3000);
    assert.equal(l.size, 2000 + 5);
    // A key forgotten starts afresh; one kept still counts what it had.
    assert.deepEqual(l.consume('k2', device, t0 + DAY + 3001), {
      allowed: true,
      rule: device[0],
      remaining: 0,
      resetMs: 1000,
    });
    assert.equal(l.consume('k4999', device, t0 + 5800).allowed, false);
    for (let i = 0; i < 4000; i++) assert.equal(l.consume(`n${i}`, device, t0 + DAY + 4000).allowed, true);
    assert.equal(l.consume('k4999', device, t0 + 5900).allowed, false);
  });

  it('keeps no key on the JavaScript heap: a day of a fleet is no work for the collector', async () => {
    const l = limiter();
    const marker = `fleet${process.pid}x${Date.now()}`;
    // Flat strings (as a snapshot counts them), made in functions of their own and let go: only the
    // limiter could keep them.
    const key = (i: number) => flat(`track:0123456789abcdef01234567:1:${marker}-${i}`);
    const consumeAll = (now: number) => {
      for (let i = 0; i < 3000; i++) l.consume(key(i), device, now);
    };
    consumeAll(0);
    consumeAll(10);
    assert.equal(l.size, 3000);
    assert.equal(l.consume(key(2999), device, 20).allowed, false, 'each key still counts its own windows');
    assert.equal(await heapStringsWith(`:${marker}-`), 0, 'no key is a string on the heap');
  });

  it('sweeps on its timer a part at a time, through more keys than a part holds', async () => {
    const l = limiter(50);
    const dayAgo = Date.now() - DAY - 60_000;
    // More than the 65,536 slots of a part: the sweep goes on in later turns and reaches them all.
    for (let i = 0; i < 70_000; i++) l.consume(`old${i}`, device, dayAgo);
    l.consume('fresh', device, Date.now());
    assert.ok(await poll(async () => l.size === 1, 5000, 20), `${l.size} keys left`);
    assert.equal(l.consume('fresh', device, Date.now()).allowed, false, 'the fresh key is kept, with its windows');
  });
});
