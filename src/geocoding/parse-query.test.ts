import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryReadings } from './parse-query.js';

test('commas separate the name from its qualifiers', () => {
  assert.deepEqual(queryReadings('Paris, TX'), [{ name: 'paris', qualifiers: ['tx'] }]);
  assert.deepEqual(queryReadings('São Paulo, , Brazil'), [{ name: 'sao paulo', qualifiers: ['brazil'] }]);
});

test('without commas, trailing words may be a qualifier', () => {
  assert.deepEqual(queryReadings('paris tx'), [
    { name: 'paris tx', qualifiers: [] },
    { name: 'paris', qualifiers: ['tx'] },
  ]);
  assert.equal(queryReadings('a b c d e').length, 6);
  assert.deepEqual(queryReadings('paris texas us').at(-1), { name: 'paris', qualifiers: ['texas', 'us'] });
  assert.deepEqual(queryReadings('honolulu'), [{ name: 'honolulu', qualifiers: [] }]);
});

test('ZIP+4 keeps the ZIP; an empty query has no reading', () => {
  assert.deepEqual(queryReadings('96813-1234'), [{ name: '96813', qualifiers: [] }]);
  assert.deepEqual(queryReadings('  '), []);
});
