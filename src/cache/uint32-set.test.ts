import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Uint32Set } from './uint32-set.js';

describe('Uint32Set', () => {
  it('holds every member added, through many doublings, and nothing else', () => {
    const set = new Uint32Set(2);
    const members: number[] = [];
    for (let i = 1; i <= 50_000; i++) members.push((Math.imul(i, 2654435761) >>> 0) | 1);
    for (const m of members) set.add(m);
    for (const m of members) set.add(m);
    assert.equal(set.size, 50_000, 'a member added twice counts once');
    for (const m of members) assert.ok(set.has(m));
    // Even numbers were never added (every member is odd).
    for (let i = 1; i <= 50_000; i++) assert.equal(set.has(Math.imul(i, 2654435761) & ~1 || 2), false);
    assert.ok(set.has(members[0]! | 0), 'a member given signed is the same member');
  });

  it('keeps members that share their low or high bits apart', () => {
    const set = new Uint32Set();
    const members = Array.from({ length: 1000 }, (_, i) => ((i + 1) << 20) >>> 0).concat(
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    for (const m of members) set.add(m);
    assert.equal(set.size, 2000);
    for (const m of members) assert.ok(set.has(m));
    assert.equal(set.has(0xffffffff), false);
  });

  it('refuses 0, the mark of an empty slot', () => {
    assert.throws(() => new Uint32Set().add(0), RangeError);
  });
});
