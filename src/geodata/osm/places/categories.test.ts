import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATEGORY_GROUPS, CATEGORY_PARENTS, classifyTags, withAncestors } from './categories.js';

describe('classifyTags', () => {
  it('maps the primary tag and adds every ancestor, most specific first', () => {
    assert.deepEqual(classifyTags({ amenity: 'cafe', name: 'Starbucks' }), {
      tag: 'amenity/cafe',
      categories: ['coffee-shop', 'food-beverage'],
    });
    assert.deepEqual(classifyTags({ shop: 'supermarket' })?.categories, [
      'supermarket',
      'grocery-store',
      'shopping-retail',
    ]);
  });

  it('refines restaurants by cuisine and places of worship by religion', () => {
    assert.deepEqual(classifyTags({ amenity: 'fast_food', cuisine: 'burger;chicken' })?.categories, [
      'burger-joint',
      'restaurant',
      'food-beverage',
      'chicken-restaurant',
      'fast-food-restaurant',
    ]);
    assert.deepEqual(classifyTags({ amenity: 'place_of_worship', religion: 'christian' })?.categories, [
      'church',
      'place-of-worship',
      'community-government',
    ]);
  });

  it('adds the categories of every place key; the first one is primary', () => {
    const fuel = classifyTags({ amenity: 'fuel', shop: 'convenience', brand: '7-Eleven' });
    assert.equal(fuel?.tag, 'amenity/fuel');
    assert.deepEqual(fuel?.categories, ['gas-station', 'automotive', 'convenience-store', 'shopping-retail']);
  });

  it('falls back per key for unknown values and refuses what is not a place', () => {
    assert.deepEqual(classifyTags({ shop: 'something_new' })?.categories, ['shopping-retail']);
    assert.deepEqual(classifyTags({ office: 'it' })?.categories, ['office', 'professional-services']);
    assert.equal(classifyTags({ amenity: 'bench' }), null);
    assert.equal(classifyTags({ shop: 'vacant' }), null);
    assert.equal(classifyTags({ highway: 'residential' }), null);
  });

  it('has a consistent tree and groups', () => {
    assert.deepEqual(withAncestors('sushi-restaurant'), [
      'sushi-restaurant',
      'japanese-restaurant',
      'asian-restaurant',
      'restaurant',
      'food-beverage',
    ]);
    for (const slug of CATEGORY_PARENTS.keys()) assert.match(slug, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const slugs of Object.values(CATEGORY_GROUPS)) for (const s of slugs) assert.ok(CATEGORY_PARENTS.has(s), s);
  });
});
