import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COARSE_LAYERS, expandLayers, FINE_LAYERS } from './layers.js';

test('coarse and fine expand to their members', () => {
  assert.deepEqual(expandLayers('coarse'), new Set(COARSE_LAYERS));
  assert.deepEqual(expandLayers(['fine']), new Set(FINE_LAYERS));
  assert.deepEqual(expandLayers('locality, state,coarse'), new Set(COARSE_LAYERS));
  assert.deepEqual(expandLayers('locality,address'), new Set(['locality', 'address']));
});

test('absent or empty means every layer; unknown names are ignored', () => {
  assert.equal(expandLayers().size, COARSE_LAYERS.length + FINE_LAYERS.length);
  assert.equal(expandLayers('').size, COARSE_LAYERS.length + FINE_LAYERS.length);
  assert.deepEqual(expandLayers('locality,bogus'), new Set(['locality']));
  assert.deepEqual(expandLayers('bogus'), new Set());
});
