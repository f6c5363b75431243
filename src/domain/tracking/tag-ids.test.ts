import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TagIds } from './tag-ids.js';

describe('TagIds', () => {
  it('finds an id by tag and externalId, each pair apart from the others', () => {
    const tags = new TagIds();
    tags.set('store', 'a', 'g1');
    tags.set('store', 'b', 'g2');
    tags.set('venue', 'a', 'g3');
    assert.equal(tags.get('store', 'a'), 'g1');
    assert.equal(tags.get('store', 'b'), 'g2');
    assert.equal(tags.get('venue', 'a'), 'g3');
    assert.equal(tags.get('venue', 'b'), undefined);
    assert.equal(tags.get('other', 'a'), undefined);
  });

  it('forgets a pair only while it still names the id given', () => {
    const tags = new TagIds();
    tags.set('store', 'a', 'g1');
    tags.set('store', 'a', 'g2');
    tags.deleteIf('store', 'a', 'g1');
    assert.equal(tags.get('store', 'a'), 'g2', 'taken by another fence since');
    tags.deleteIf('store', 'a', 'g2');
    assert.equal(tags.get('store', 'a'), undefined);
    tags.deleteIf('none', 'a', 'g2');
    tags.set('store', 'a', 'g3');
    assert.equal(tags.get('store', 'a'), 'g3', 'a tag emptied and used again');
  });

  it('does not mistake a tag and externalId for another pair that joins to the same text', () => {
    const tags = new TagIds();
    tags.set('a\u0000b', 'c', 'g1');
    assert.equal(tags.get('a', 'b\u0000c'), undefined);
  });
});
