import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formTooLarge, jsonTooLarge, MAX_JSON_CONTAINERS } from './json-shape.js';

const of = (text: string) => jsonTooLarge(Buffer.from(text));

describe('jsonTooLarge', () => {
  it('takes a 10,000-position polygon and counts nothing inside strings, escapes included', () => {
    const ring = Array.from({ length: 10_000 }, (_, i) => [i / 1e4, 1]);
    assert.equal(of(JSON.stringify({ coordinates: [ring], metadata: { a: '[[[{{{,,,' } })), undefined);
    const quoted = JSON.stringify({ s: `\\"${'['.repeat(MAX_JSON_CONTAINERS + 10)}\\\\` });
    assert.equal(of(quoted), undefined, 'brackets in a string with escaped quotes and backslashes');
  });

  it('refuses more arrays and objects than a polygon or replay holds, and too many values', () => {
    const zeros = `[${Array.from({ length: 30_000 }, () => '[0,0]').join(',')}]`;
    assert.match(of(zeros) ?? '', /^body must hold at most 25000 arrays and objects\.$/);
    assert.match(of(`[${'0,'.repeat(300_000)}0]`) ?? '', /^body must hold at most 250000 values/);
  });

  it('counts form fields', () => {
    assert.equal(formTooLarge('a=1&b=2'), undefined);
    assert.match(formTooLarge('a=1&'.repeat(1001)) ?? '', /^body must hold at most 1000 fields/);
  });
});
