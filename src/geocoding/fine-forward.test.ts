import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GeocodeAddress } from './address.js';
import { formatLine } from './fine-address.js';
import { contextScore } from './fine-forward.js';

const queens = {
  city: 'Queens Village',
  county: 'Queens County',
  stateCode: 'NY',
  state: 'New York',
  postalCode: '11427',
} as GeocodeAddress;

describe('fine forward helpers', () => {
  it('formats a US address line', () => {
    assert.equal(
      formatLine('89-12 Springfield Blvd', { ...queens, countryCode: 'US' }),
      '89-12 Springfield Blvd, Queens Village, NY 11427 US',
    );
    assert.equal(formatLine('Main St', { stateCode: 'HI' }), 'Main St, HI');
  });

  it('scores context: postcode and state contradict, a locality only ranks', () => {
    assert.equal(contextScore({ postcode: '11427' }, queens), 2);
    assert.equal(contextScore({ postcode: '11427-1234' }, queens), 2);
    assert.equal(contextScore({ postcode: '96813' }, queens), null);
    assert.equal(contextScore({ region: 'HI' }, queens), null);
    assert.equal(contextScore({ region: 'new york', locality: 'Queens' }, queens), 1);
    assert.equal(contextScore({ locality: 'Honolulu' }, queens), -1);
  });
});
