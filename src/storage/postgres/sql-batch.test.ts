import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { lit, quote } from './sql-batch.js';

describe('sql-batch literals', () => {
  it('quotes strings exactly as pg.escapeLiteral does', () => {
    const cases = ['', 'plain', "it's", "''", '\\', 'a\\b', "a'b\\c", 'ünïcödé ✓', '{"a":"x\\"y"}', "\n\t'"];
    for (const s of cases) assert.equal(quote(s), pg.escapeLiteral(s), JSON.stringify(s));
  });

  it('writes objects as quoted JSON and numbers, booleans and null bare', () => {
    const doc = { name: "O'Hare", path: 'C:\\tmp', n: [1, null] };
    assert.equal(lit(doc), pg.escapeLiteral(JSON.stringify(doc)));
    assert.equal(lit(1.5), '1.5');
    assert.equal(lit(false), 'FALSE');
    assert.equal(lit(null), 'NULL');
    assert.throws(() => lit(Number.NaN));
  });
});
