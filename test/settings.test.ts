import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { startServer, type TestServer } from './helpers/server.js';

describe('place settings', () => {
  let s: TestServer;
  let key: string;
  const patch = (json: unknown) => s.request('PATCH', '/v1/settings', { key, json });
  const current = async () => {
    const res = await s.request('GET', '/v1/settings', { key });
    assertOk(res);
    const { meta: _meta, ...settings } = res.body;
    return settings;
  };
  before(async () => {
    s = await startServer();
    key = s.keys.test.secret;
  });
  after(() => s.close());

  it('GET returns empty defaults', async () => {
    const res = await s.request('GET', '/v1/settings', { key });
    assertOk(res);
    assert.deepEqual(res.body, {
      meta: { code: 200 },
      chainMetadata: {},
      chainMappings: {},
      placeFilters: { chain: [], category: [] },
      features: { places: false, regions: false, insights: false },
      segments: [],
    });
  });

  it('PATCH chainMetadata echoes it and keeps the other fields', async () => {
    const chainMetadata = { starbucks: { loyalty: true, tier: 2, brand: 'sb' }, 'whole-foods': {} };
    const res = await patch({ chainMetadata });
    assertOk(res);
    assert.deepEqual(res.body.chainMetadata, chainMetadata);
    assert.deepEqual(res.body.chainMappings, {});
    assert.deepEqual(res.body.placeFilters, { chain: [], category: [] });
    assert.deepEqual((await current()).chainMetadata, chainMetadata);
  });

  it('PATCH chainMappings echoes it and keeps chainMetadata', async () => {
    const before = await current();
    const res = await patch({ chainMappings: { starbucks: 'sbux-001', mcdonalds: 'mcd' } });
    assertOk(res);
    assert.deepEqual(res.body.chainMappings, { starbucks: 'sbux-001', mcdonalds: 'mcd' });
    assert.deepEqual(res.body.chainMetadata, before.chainMetadata);
    assert.deepEqual(await current(), { ...before, chainMappings: { starbucks: 'sbux-001', mcdonalds: 'mcd' } });
  });

  it('PATCH placeFilters echoes it and keeps the others; a missing list reads empty', async () => {
    const before = await current();
    const res = await patch({ placeFilters: { chain: ['starbucks'], category: ['food-beverage', 'shopping'] } });
    assertOk(res);
    assert.deepEqual(res.body.placeFilters, { chain: ['starbucks'], category: ['food-beverage', 'shopping'] });
    assert.deepEqual(res.body.chainMetadata, before.chainMetadata);
    assert.deepEqual(res.body.chainMappings, before.chainMappings);
    const onlyChain = await patch({ placeFilters: { chain: ['walmart'] } });
    assert.deepEqual(onlyChain.body.placeFilters, { chain: ['walmart'], category: [] });
  });

  it('PATCH with nothing (or nulls) changes nothing and echoes the settings', async () => {
    const before = await current();
    const empty = await patch({});
    assertOk(empty);
    const { meta: _m1, ...echoed } = empty.body;
    assert.deepEqual(echoed, before);
    const nulls = await patch({ chainMetadata: null, chainMappings: null, placeFilters: null, other: 1 });
    assertOk(nulls);
    assert.deepEqual(await current(), before);
  });

  it('PATCH can clear a field with an empty dictionary', async () => {
    const res = await patch({ chainMappings: {} });
    assertOk(res);
    assert.deepEqual(res.body.chainMappings, {});
    assert.deepEqual((await current()).chainMappings, {});
  });

  it('settings of 4 MB come back whole from PATCH and GET, printed a chunk at a time', async () => {
    const full = Object.fromEntries(
      Array.from({ length: 16 }, (_, k) => [`key${k}`, String.fromCharCode(97 + k).repeat(1000)]),
    );
    const chainMetadata = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`chain-${i}`, full]));
    const patched = await patch({ chainMetadata });
    assertOk(patched);
    const read = await s.request('GET', '/v1/settings', { key });
    for (const res of [patched, read]) {
      // In any order: PostgreSQL's jsonb keeps a document's keys in an order of its own.
      assert.deepEqual(Object.keys(res.body).sort(), [
        'chainMappings',
        'chainMetadata',
        'features',
        'meta',
        'placeFilters',
        'segments',
      ]);
      assert.deepEqual(res.body.meta, { code: 200 });
      assert.deepEqual(res.body.chainMetadata, chainMetadata);
      // Streamed (no length known up front): printed in parts with turns of the event loop between.
      assert.equal(res.headers.get('content-length'), null);
    }
    await patch({ chainMetadata: {} });
  });

  it('PATCH reads a form body with JSON strings', async () => {
    const res = await s.request('PATCH', '/v1/settings', {
      key,
      form: {
        chainMetadata: JSON.stringify({ target: { red: true } }),
        chainMappings: JSON.stringify({ target: 'tgt' }),
        placeFilters: JSON.stringify({ chain: ['target'], category: [] }),
      },
    });
    assertOk(res);
    assert.deepEqual(res.body.chainMetadata, { target: { red: true } });
    assert.deepEqual(res.body.chainMappings, { target: 'tgt' });
    assert.deepEqual(res.body.placeFilters, { chain: ['target'], category: [] });
    assert.deepEqual(await current(), {
      chainMetadata: { target: { red: true } },
      chainMappings: { target: 'tgt' },
      placeFilters: { chain: ['target'], category: [] },
      features: { places: false, regions: false, insights: false },
      segments: [],
    });
  });

  describe('rejected shapes name the parameter and change nothing', () => {
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['chainMetadata a list', { chainMetadata: [1] }, 'chainMetadata'],
      ['chainMetadata a number', { chainMetadata: 3 }, 'chainMetadata'],
      ['chainMetadata not JSON', { chainMetadata: '{nope' }, 'chainMetadata'],
      ['chainMetadata value not a dictionary', { chainMetadata: { starbucks: 'gold' } }, 'chainMetadata'],
      ['chainMetadata value nested', { chainMetadata: { starbucks: { a: { b: 1 } } } }, 'chainMetadata'],
      ['chainMetadata value with 17 keys', { chainMetadata: { starbucks: tooMany } }, 'chainMetadata'],
      ['chainMetadata key not a slug', { chainMetadata: { 'Star Bucks': { a: 1 } } }, 'chainMetadata'],
      ['chainMappings a list', { chainMappings: ['a'] }, 'chainMappings'],
      ['chainMappings value a number', { chainMappings: { starbucks: 5 } }, 'chainMappings'],
      ['chainMappings value a dictionary', { chainMappings: { starbucks: { id: 'x' } } }, 'chainMappings'],
      ['chainMappings key not a slug', { chainMappings: { '': 'x' } }, 'chainMappings'],
      ['placeFilters a list', { placeFilters: ['starbucks'] }, 'placeFilters'],
      ['placeFilters unknown key', { placeFilters: { brand: ['x'] } }, 'placeFilters'],
      ['placeFilters chain not a list', { placeFilters: { chain: 'starbucks' } }, 'placeFilters'],
      ['placeFilters category with a number', { placeFilters: { category: ['food', 3] } }, 'placeFilters'],
      ['placeFilters not JSON', { placeFilters: 'chain=starbucks' }, 'placeFilters'],
    ];
    for (const [name, body, param] of cases) {
      it(`${name} -> 400 ${param}`, async () => {
        const before = await current();
        assertError(await patch(body), 400, param);
        assert.deepEqual(await current(), before);
      });
    }

    it('a valid field beside an invalid one is not applied either', async () => {
      const before = await current();
      assertError(await patch({ chainMappings: { walmart: 'wm' }, placeFilters: { chain: 5 } }), 400, 'placeFilters');
      assert.deepEqual(await current(), before);
    });
  });
});
