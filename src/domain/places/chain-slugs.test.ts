// store-independent: slug resolution over an in-memory list of places
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlaceLayer } from '../../geodata/osm/places/place-layer.js';
import { chainSlugAliases, resolveChainSlugs } from './chain-slugs.js';

// A region's places reduced to what slug resolution reads: their chains.
function layerOf(chains: { name: string; slug: string }[]): PlaceLayer {
  return { count: chains.length, record: (i: number) => ({ chain: chains[i] }) } as unknown as PlaceLayer;
}

test('a chain answers to its catalogue slug, the slug without its Q-id and its name without "&"', () => {
  assert.deepEqual(chainSlugAliases({ name: 'AT&T', slug: 'at-and-t-q298594' }), [
    'at-and-t-q298594',
    'at-and-t',
    'att',
  ]);
  assert.deepEqual(chainSlugAliases({ name: '7-Eleven', slug: '7-eleven' }), ['7-eleven']);
});

test('a plain name two brands share means the one with more places in the region; qualified slugs keep their brand', () => {
  const drive = { name: 'Sonic', slug: 'sonic-q7561808' };
  const other = { name: 'Sonic', slug: 'sonic' };
  const more = layerOf([drive, drive, drive, other]);
  assert.deepEqual([...resolveChainSlugs(more, ['sonic'])], ['sonic-q7561808']);
  assert.deepEqual([...resolveChainSlugs(more, ['sonic-q7561808'])], ['sonic-q7561808']);
  const fewer = layerOf([drive, other, other]);
  assert.deepEqual([...resolveChainSlugs(fewer, ['sonic'])], ['sonic']);
  assert.deepEqual([...resolveChainSlugs(fewer, ['sonic-q7561808'])], ['sonic-q7561808']);
  assert.deepEqual([...resolveChainSlugs(layerOf([]), ['unknown'])], ['unknown']);
});
