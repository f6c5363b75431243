import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../domain/errors.js';
import { rejectIllFormedText } from './well-formed-text.js';

function refusal(source: unknown): { param: string | undefined; message: string } | null {
  try {
    rejectIllFormedText(source);
    return null;
  } catch (err) {
    assert.ok(err instanceof DomainError);
    assert.equal(err.kind, 'invalid');
    return { param: err.param, message: err.message };
  }
}

describe('rejectIllFormedText', () => {
  it('takes well-formed text, numbers and nesting, surrogate pairs included', () => {
    assert.equal(refusal({ a: 'café 😀', b: [1, [2, { c: 'd' }]], e: null, f: true }), null);
    assert.equal(refusal(undefined), null);
    assert.equal(refusal('a\u0000'), null, 'only objects are walked: a route reads fields, not a bare body');
  });

  it('names the top-level field that holds a NUL or an unpaired surrogate anywhere', () => {
    assert.deepEqual(refusal({ ok: 'x', metadata: { a: ['y', 'z\u0000'] } }), {
      param: 'metadata',
      message: 'metadata must not contain the NUL character (U+0000).',
    });
    assert.deepEqual(refusal({ beacons: [{ uuid: 'lone \ud800' }] }), {
      param: 'beacons',
      message: 'beacons must be well-formed Unicode (it holds an unpaired surrogate).',
    });
    assert.equal(refusal({ metadata: { '\udc00': 1 } })?.param, 'metadata', 'a nested key counts');
  });

  it('escapes a bad top-level key in the name it gives', () => {
    assert.equal(refusal({ 'a\u0000b': 1 })?.param, 'a\\u0000b');
  });

  it('walks nesting deeper than the call stack without overflowing it', () => {
    let deep: unknown = ['\u0000'];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(refusal({ coordinates: deep })?.param, 'coordinates');
  });
});
