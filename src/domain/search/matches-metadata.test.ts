import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesMetadata } from './matches-metadata.js';

describe('matchesMetadata', () => {
  it('needs every filter key with an equal value, typed or as text', () => {
    assert.equal(matchesMetadata({ open: true, floor: 2 }, { open: true }), true);
    assert.equal(matchesMetadata({ open: 'true' }, { open: true }), true);
    assert.equal(matchesMetadata({ floor: '2' }, { floor: 2 }), true);
    assert.equal(matchesMetadata({ open: false }, { open: true }), false);
    assert.equal(matchesMetadata({ open: true }, { open: true, floor: 2 }), false);
    assert.equal(matchesMetadata(null, { open: true }), false);
  });
  it('matches everything without a filter', () => {
    assert.equal(matchesMetadata(null, undefined), true);
    assert.equal(matchesMetadata({ a: 1 }, {}), true);
  });
});
