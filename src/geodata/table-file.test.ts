import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NameIndex, NameKind } from './name-index.js';
import { parseCsv } from './parse-csv.js';
import { readTable, writeTable } from './table-file.js';

test('tables round-trip strings (empty ones too), typed numbers and meta', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'whereabouts-table-'));
  try {
    const path = join(dir, 't.bin');
    const table = {
      strings: { name: ['Zürich', '', 'São Paulo'], one: [''], none: [] as string[] },
      numbers: { lon: Float64Array.of(8.5, -46.6, 0), pop: Uint32Array.of(1, 2, 3), flag: Uint8Array.of(1, 0, 1) },
      meta: { admin: { 'CH.ZH': 'Zurich' } },
    };
    await writeTable(path, table);
    const read = await readTable(path);
    const strings = Object.fromEntries(Object.entries(read.strings).map(([name, column]) => [name, [...column]]));
    assert.deepEqual({ ...read, strings }, table);
    await writeFile(path, 'not a table');
    await assert.rejects(readTable(path), /not a Whereabouts table/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the name index finds exact keys and prefixes, and merges sorted', () => {
  const a = NameIndex.build((add) => {
    add('paris', NameKind.locality, 1);
    add('paris', NameKind.locality, 2);
    add('parisot', NameKind.locality, 3);
    add('li', NameKind.country, 0, 1);
    add('', NameKind.locality, 9);
  });
  assert.equal(a.size, 4);
  assert.deepEqual(a.exactRange('paris'), [1, 3]);
  assert.deepEqual(a.prefixRange('par'), [1, 4]);
  assert.deepEqual(a.prefixRange('zz'), [4, 4]);
  const b = NameIndex.build((add) => add('pa', NameKind.zip, 5));
  const merged = NameIndex.merge(a, b);
  assert.deepEqual([...merged.keys], ['li', 'pa', 'paris', 'paris', 'parisot']);
  assert.equal(merged.kinds[1], NameKind.zip);
});

test('CSV: quotes, commas and newlines in fields, CRLF, BOM and blank lines', () => {
  assert.deepEqual(parseCsv('\ufeffa,b\r\n1,"x, ""y"""\r\n\r\n2,"multi\nline"\n'), [
    ['a', 'b'],
    ['1', 'x, "y"'],
    ['2', 'multi\nline'],
  ]);
  assert.throws(() => parseCsv('a,"open'), /quoted field/);
});
