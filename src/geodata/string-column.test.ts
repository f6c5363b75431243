import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StringColumn } from './string-column.js';

const VALUES = ['Zürich', '', 'São Paulo', 'a\nb', 'paris', 'parisot'];

test('a column gives back each row, undefined outside it, and compares in place', () => {
  const column = StringColumn.of(VALUES);
  assert.equal(column.length, VALUES.length);
  assert.deepEqual([...column], VALUES);
  assert.deepEqual(column.toArray(), VALUES);
  for (const [i, v] of VALUES.entries()) {
    assert.equal(column.get(i), v);
    assert.ok(column.equals(i, v));
    assert.ok(column.startsWith(i, v.slice(0, 2)));
  }
  for (const outside of [-1, VALUES.length, 1.5, Number.NaN]) {
    assert.equal(column.get(outside), undefined);
    assert.equal(column.equals(outside, ''), false);
    assert.equal(column.startsWith(outside, ''), false);
  }
  assert.equal(column.equals(4, 'pari'), false);
  assert.equal(column.equals(5, 'paris'), false);
  assert.ok(column.startsWith(5, 'paris'));
  assert.equal(column.startsWith(4, 'parisot'), false);
  assert.equal(column.indexOf('São Paulo'), 2);
  assert.equal(column.indexOf(''), 1);
  assert.equal(column.indexOf('paris '), -1);
});

test('lessThan orders rows as < orders strings', () => {
  const column = StringColumn.of(VALUES);
  const probes = [...VALUES, 'par', 'parisz', 'Z', 'Zz', '\u007f', ''];
  for (let i = 0; i < VALUES.length; i++) {
    for (const s of probes) assert.equal(column.lessThan(i, s), VALUES[i]! < s, `${VALUES[i]} < ${s}`);
  }
});

test('split reads rows joined by a separator, and refuses another number of rows', () => {
  const column = StringColumn.split('a\n\nbc', 3, '\n');
  assert.deepEqual([...column], ['a', '', 'bc']);
  assert.deepEqual([...StringColumn.split('', 1, '\n')], ['']);
  assert.deepEqual([...StringColumn.split('', 0, '\n')], []);
  assert.throws(() => StringColumn.split('a\nb', 3, '\n'), /fewer than 3 rows/);
  assert.throws(() => StringColumn.split('a\nb\nc', 2, '\n'), /more than 2 rows/);
});
