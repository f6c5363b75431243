import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keptJson } from './kept-json.js';

describe('keptJson', () => {
  it('prints what JSON.stringify prints, escapes and nesting included', () => {
    const o = Object.freeze({ _id: 'g1', description: 'Caf\u00e9 "Nord"\n', metadata: { n: 1, list: [1.5, null] } });
    assert.equal(keptJson(o), JSON.stringify(o));
    assert.equal(keptJson(o), JSON.stringify(o), 'and the same text when asked again');
  });

  it('prints an object that is not frozen anew, so a change to it shows', () => {
    const o: Record<string, unknown> = { _id: 'g1' };
    assert.equal(keptJson(o), '{"_id":"g1"}');
    o.tag = 'store';
    assert.equal(keptJson(o), '{"_id":"g1","tag":"store"}');
  });
});
