import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateRule } from './rate-limiter.js';

const DAY = 86_400_000;
const device: RateRule[] = [
  { windowMs: 1000, max: 1, label: 'second' },
  { windowMs: 3_600_000, max: 3, label: 'hour' },
  { windowMs: DAY, max: 5, label: 'day' },
];

describe('MemoryRateLimiter', () => {
  const limiters: MemoryRateLimiter[] = [];
  const limiter = () => {
    const l = new MemoryRateLimiter();
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
    assert.throws(() => l.consume('none', [], 40), /at least one rule/);
    assert.throws(() => l.consume('long', [{ windowMs: 2 * DAY, max: 1, label: 'two days' }], 40), /at most/);
    assert.equal(l.size, 1, 'a refused limit keeps no key');
  });

  it('gives back what a request took, in the windows that counted it only', () => {
    const l = limiter();
    const t0 = 1_700_000_000_000;
    assert.equal(l.consume('d', device, t0).allowed, true);
    l.refund('d', device, t0);
    // Every window it opened is closed again: the next request opens its own, a full second long.
    assert.deepEqual(l.consume('d', device, t0 + 400), { allowed: true, rule: device[0], remaining: 0, resetMs: 1000 });
    assert.equal(l.consume('d', device, t0 + 1000).allowed, false, 'the second runs from the later request');
    assert.equal(l.consume('d', device, t0 + 1400).allowed, true);
    // Two counted in the hour (3 allowed): a refund of the one at t0 + 1400 leaves room for two more.
    l.refund('d', device, t0 + 1400);
    assert.equal(l.consume('d', device, t0 + 2400).allowed, true);
    assert.equal(l.consume('d', device, t0 + 3400).allowed, true);
    assert.equal(l.consume('d', device, t0 + 4400).rule, device[1], 'then the hour is full');
    // A refund for a window that has ended since does not touch the one open now.
    l.refund('e', device, t0);
    assert.equal(l.consume('e', device, t0 + 5000).allowed, true);
    l.refund('e', device, t0 + 3000);
    assert.equal(l.consume('e', device, t0 + 5500).allowed, false);
    // Nor does a refund of a key or a time never counted.
    l.refund('unknown', device, t0);
    assert.equal(l.size, 2);
  });

  it('keeps a key at least a day after its last request, and forgets it within two', () => {
    const l = limiter();
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 5000; i++) assert.equal(l.consume(`k${i}`, device, t0 + i).allowed, true, `k${i}`);
    // Half a day on, k0 is used again; a day on, the limiter turns a generation and keeps them all.
    assert.equal(l.consume('k0', device, t0 + DAY / 2).allowed, true);
    assert.equal(l.consume('late', device, t0 + DAY).allowed, true);
    assert.equal(l.size, 5001);
    // k1, used after the turn, still counts the second it had (its day opened at t0 + 1).
    assert.equal(l.consume('k1', device, t0 + DAY).allowed, true);
    assert.equal(l.consume('k1', device, t0 + DAY + 500).allowed, false);
    // Two days on, the keys not used since the turn are gone, k0 with them (1.5 days after its last
    // request); k1 and late, used since, stay until the next turn.
    assert.equal(l.consume('now', device, t0 + 2 * DAY).allowed, true);
    assert.equal(l.size, 3, 'k1, late and now');
    // A forgotten key starts afresh; its windows had all ended anyway.
    assert.deepEqual(l.consume('k2', device, t0 + 2 * DAY), {
      allowed: true,
      rule: device[0],
      remaining: 0,
      resetMs: 1000,
    });
  });
});
