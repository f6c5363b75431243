import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextRing } from './text-ring.js';

describe('TextRing', () => {
  it('gives back each text it keeps, whatever its characters', () => {
    const ring = new TextRing(1024, 8);
    const texts = ['{"id":"a"}', 'Zürich, Straße', '東京都 🗼', ''];
    const handles = texts.map((t) => ring.put(t));
    assert.deepEqual(
      handles.map((h) => ring.get(h)),
      texts,
    );
  });

  it('forgets a text once the ring has taken its capacity in newer bytes, never answering with others', () => {
    const ring = new TextRing(100, 8);
    const first = ring.put('a'.repeat(40));
    const second = ring.put('b'.repeat(40));
    assert.equal(ring.get(first), 'a'.repeat(40));
    // 40 more bytes do not fit before the end: the third starts the next turn, over the first.
    const third = ring.put('c'.repeat(40));
    assert.equal(ring.get(first), undefined);
    assert.equal(ring.get(second), 'b'.repeat(40));
    assert.equal(ring.get(third), 'c'.repeat(40));
    ring.put('d'.repeat(30));
    assert.equal(ring.get(second), undefined, 'the second went under the fourth');
    assert.equal(ring.get(third), 'c'.repeat(40));
  });

  it('refuses a text longer than the ring, or one more than its handles', () => {
    const ring = new TextRing(10, 2);
    assert.equal(ring.put('x'.repeat(11)), -1);
    assert.equal(ring.put('é'.repeat(6)), -1, 'twelve bytes in UTF-8');
    const a = ring.put('a');
    ring.put('b');
    assert.equal(ring.put('c'), -1);
    ring.release(a);
    const c = ring.put('c');
    assert.equal(c, a, 'a released handle is given out again');
    assert.equal(ring.get(c), 'c');
    ring.clear();
    assert.notEqual(ring.put('d'), -1);
    assert.notEqual(ring.put('e'), -1);
  });

  it('keeps a text with two references until both are released', () => {
    const ring = new TextRing(100, 1);
    const a = ring.put('shared');
    assert.equal(ring.retain(a), a);
    ring.release(a);
    assert.equal(ring.put('other'), -1, 'the handle is still held');
    assert.equal(ring.get(a), 'shared');
    ring.release(a);
    assert.notEqual(ring.put('other'), -1, 'free once both are released');
  });
});
