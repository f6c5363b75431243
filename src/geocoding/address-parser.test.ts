import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAddress } from './address-parser.js';

describe('parseAddress (pelias-parser)', () => {
  it('reads number, street, locality, region and postcode', () => {
    assert.deepEqual(parseAddress('123 Main St, Honolulu, HI 96813'), {
      number: '123',
      street: 'Main St',
      locality: 'Honolulu',
      region: 'HI',
      postcode: '96813',
    });
    assert.equal(parseAddress('89-12 Springfield Blvd').number, '89-12');
  });

  it('keeps a whole comma-delimited locality the parser cut short', () => {
    assert.equal(parseAddress('12 Nowhere Road, Queens Village, NY').locality, 'Queens Village');
  });

  it('splits intersections and keeps their locality', () => {
    const p = parseAddress('Springfield Blvd & Jamaica Ave, Queens, NY');
    assert.deepEqual(p.intersection, ['Springfield Blvd', 'Jamaica Ave']);
    assert.equal(p.region, 'NY');
    assert.deepEqual(parseAddress('main st and 2nd ave').intersection, ['main st', '2nd ave']);
  });
});
