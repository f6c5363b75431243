import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChainCatalogue, simplify, slugify } from './chains.js';
import { joinRings } from './extract-places.js';

const item = (id: string, displayName: string, tags: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  id,
  displayName,
  locationSet: { include: ['001'] },
  tags,
  ...extra,
});

const catalogue = new ChainCatalogue(
  {
    nsi: {
      'brands/amenity/cafe': {
        items: [
          item('starbucks-1', 'Starbucks', { brand: 'Starbucks', 'brand:wikidata': 'Q37158', name: 'Starbucks' }),
          item(
            'starbucks-jp',
            'スターバックス',
            { brand: 'スターバックス', 'brand:wikidata': 'Q37158' },
            {
              locationSet: { include: ['jp'] },
            },
          ),
          item('local-1', 'Kona Joe', { brand: 'Kona Joe' }, { locationSet: { include: ['us'] } }),
        ],
      },
      'brands/amenity/fast_food': {
        items: [
          item('tb-1', 'Taco Bell', { brand: 'Taco Bell', 'brand:wikidata': 'Q752941' }),
          item(
            'tb-2',
            'Taco Bell',
            { brand: 'Taco Bell', 'brand:wikidata': 'Q752941' },
            { matchNames: ['taco bell express'] },
          ),
          item(
            'tbc',
            'Taco Bell Cantina',
            { brand: 'Taco Bell', 'brand:wikidata': 'Q111972226' },
            {
              locationSet: { include: ['us'] },
            },
          ),
        ],
      },
      'brands/amenity/pharmacy': {
        items: [item('longs', 'Longs Drugs', { brand: 'Longs Drugs' }, { locationSet: { include: ['us-hi'] } })],
      },
      'brands/amenity/restaurant': { items: [item('ll', 'L&L Drive-Inn', { brand: 'L&L Drive-Inn' })] },
      'operators/amenity/cafe': { items: [item('op', 'City Cafes', { operator: 'City' })] },
    },
  },
  { fastfood: ['amenity/fast_food', 'amenity/restaurant'] },
);
const HONOLULU = [-157.83, 21.28] as const;
const TOKYO = [139.7, 35.68] as const;

describe('ChainCatalogue', () => {
  it('matches brand:wikidata first, in any category', () => {
    const c = catalogue.match({ name: 'Whatever', 'brand:wikidata': 'Q37158' }, 'shop/kiosk', ...HONOLULU);
    assert.deepEqual(c, { key: 'Q37158', name: 'Starbucks', slug: 'starbucks' });
  });

  it('matches brand or name within the tag path, its match group and the location set', () => {
    assert.equal(catalogue.match({ name: 'STARBUCKS' }, 'amenity/cafe', ...HONOLULU)?.slug, 'starbucks');
    assert.equal(catalogue.match({ name: 'Starbucks' }, 'shop/coffee', ...HONOLULU), undefined);
    assert.equal(catalogue.match({ name: 'Taco Bell Express' }, 'amenity/fast_food', ...HONOLULU)?.slug, 'taco-bell');
    assert.equal(
      catalogue.match({ name: 'L & L Drive Inn' }, 'amenity/fast_food', ...HONOLULU)?.slug,
      'l-and-l-drive-inn',
    );
    assert.equal(catalogue.match({ name: 'Kona Joe' }, 'amenity/cafe', ...HONOLULU)?.slug, 'kona-joe');
    assert.equal(catalogue.match({ name: 'Kona Joe' }, 'amenity/cafe', ...TOKYO), undefined, 'a US-only brand');
    assert.equal(catalogue.match({ name: 'Longs Drugs' }, 'amenity/pharmacy', ...HONOLULU)?.slug, 'longs-drugs');
    assert.equal(
      catalogue.match({ name: 'Longs Drugs' }, 'amenity/pharmacy', -115.56, 32.79),
      undefined,
      'Hawaii only',
    );
    assert.equal(
      catalogue.match({ name: 'City Cafes' }, 'amenity/cafe', ...HONOLULU),
      undefined,
      'operators are not chains',
    );
  });

  it('names a brand in Latin script and gives colliding slugs to the brand NSI lists most', () => {
    assert.equal(
      catalogue.match({ 'brand:wikidata': 'Q111972226' }, 'amenity/fast_food', ...HONOLULU)?.slug,
      'taco-bell-q111972226',
    );
    assert.equal(catalogue.match({ 'brand:wikidata': 'Q752941' }, 'amenity/fast_food', ...HONOLULU)?.slug, 'taco-bell');
  });
});

describe('slugify and simplify', () => {
  it('make URL slugs and match keys', () => {
    assert.equal(slugify('7-Eleven'), '7-eleven');
    assert.equal(slugify("McDonald's"), 'mcdonalds');
    assert.equal(slugify('Café Amazon'), 'cafe-amazon');
    assert.equal(slugify('L&L Drive-Inn'), 'l-and-l-drive-inn');
    assert.equal(slugify('スターバックス'), '');
    assert.equal(simplify('Taco Bell - Express'), 'tacobellexpress');
    assert.equal(simplify('L & L'), 'landl');
  });
});

describe('joinRings', () => {
  it('joins member ways end to end, reversing where needed, and drops open rings', () => {
    assert.deepEqual(
      joinRings([
        [1, 2, 3],
        [5, 4, 3],
        [5, 1],
      ]),
      [[1, 2, 3, 4, 5, 1]],
    );
    assert.deepEqual(joinRings([[1, 2, 3]]), []);
  });
});
