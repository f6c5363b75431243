import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { houseNumberKey, houseNumberValue, NO_NUMBER, parity } from './house-numbers.js';
import { lastWordForms, streetKey, uspsStreet } from './street-names.js';

describe('street names', () => {
  it('keys share abbreviations, directions and bare ordinals', () => {
    assert.equal(streetKey('West 42nd Street'), 'w 42 st');
    assert.equal(streetKey('W. 42 St'), 'w 42 st');
    assert.equal(streetKey('Springfield Boulevard'), streetKey('springfield blvd'));
    assert.equal(streetKey('Francis Lewis Blvd'), 'francis lewis blvd');
  });

  it('an unfinished last word stands for the types it starts', () => {
    assert.ok(lastWordForms('boul').includes('blvd'));
    assert.ok(lastWordForms('bl').includes('blvd'));
    assert.ok(lastWordForms('aven').includes('ave'));
    assert.ok(lastWordForms('194t').includes('194'));
    assert.deepEqual(lastWordForms('12'), ['12']);
  });

  it('writes street lines as USPS abbreviates them', () => {
    assert.equal(uspsStreet('Springfield Boulevard'), 'Springfield Blvd');
    assert.equal(uspsStreet('West 42nd Street'), 'W 42nd St');
    assert.equal(uspsStreet('Avenue A'), 'Avenue A');
    assert.equal(uspsStreet('Broadway'), 'Broadway');
  });

  it('kept answers are the answers', () => {
    for (const word of ['boul', 'bl', '194t', '12', 'st']) assert.deepEqual(lastWordForms(word), lastWordForms(word));
    assert.deepEqual(lastWordForms('st'), ['st', 'sta']);
    assert.equal(uspsStreet('West 42nd Street'), 'W 42nd St');
    assert.equal(uspsStreet('West 42nd Street'), uspsStreet('West 42nd Street'));
  });
});

describe('house numbers', () => {
  it('order Queens numbers by block, then house', () => {
    assert.equal(houseNumberValue('89-12'), 89_012);
    assert.ok(houseNumberValue('89-12') < houseNumberValue('90-01'));
    assert.equal(houseNumberValue('123A'), 123);
    assert.equal(houseNumberValue('Rear'), NO_NUMBER);
    assert.equal(parity(houseNumberValue('100-07')), 1);
    assert.equal(houseNumberKey('89-12'), '89 12');
  });
});
