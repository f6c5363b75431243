import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeUser } from '../../../test/helpers/fixtures.js';
import { presentUser, userJson, userJsonWith } from './user-presenter.js';

const user = makeUser(
  { projectId: 'p', live: false },
  {
    id: 'u1',
    userId: 'alice',
    // Text that looks like the spliced field must not fool the splice.
    metadata: { geofences: '[]', note: '"geofences":[]' },
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_001_000,
  },
);

describe('userJson', () => {
  const fences = [{ _id: 'g1', tag: 'a' }, { _id: 'g2' }];

  it('prints presentUser with the fences spliced in', () => {
    assert.equal(userJson(user, JSON.stringify(fences)), JSON.stringify(presentUser(user, fences)));
    assert.equal(userJson(user, '[]'), JSON.stringify(presentUser(user)));
  });

  it('prints a user it printed before with the fences given now', () => {
    const again = makeUser({ projectId: 'p', live: false }, { id: 'u2', createdAt: 1, updatedAt: 2 });
    assert.equal(userJson(again, '[]'), JSON.stringify(presentUser(again)));
    assert.equal(userJson(again, JSON.stringify(fences)), JSON.stringify(presentUser(again, fences)));
    assert.equal(userJson(again, '[]'), JSON.stringify(presentUser(again)));
  });

  it('keeps the fields the stored state adds after the fences', () => {
    const withState = { ...user, state: { insights: { spots: [] }, places: {} } };
    assert.equal(userJson(withState, JSON.stringify(fences)), JSON.stringify(presentUser(withState, fences)));
  });
});

describe('userJsonWith', () => {
  const fences = [{ _id: 'g1', tag: 'a' }];
  const text = JSON.stringify(fences);
  const same = (u: typeof user, extra: Record<string, unknown>) =>
    assert.equal(userJsonWith(u, text, extra), JSON.stringify(presentUser(u, fences, extra)));

  it('prints presentUser with the features fields, nulls left out', () => {
    same(user, {});
    same(user, { trip: { _id: 't1' }, segments: [], fraud: { passed: true }, country: null, state: undefined });
    const bare = makeUser({ projectId: 'p', live: true }, { id: 'u3', createdAt: 1, updatedAt: 2, location: null });
    same(bare, { beacons: [] });
  });

  it('keeps the stored insights and place where presentUser puts them, whatever gives their value', () => {
    const current = { id: 'p1', enteredAt: 1, place: { _id: 'p1', name: 'Home', categories: [] } };
    const withState = { ...user, state: { insights: { spots: [] }, places: { current, chains: {} } } };
    assert.match(userJsonWith(withState, '[]', {}), /"insights":.*"place":\{"name":"Home"/);
    same(withState, {});
    same(withState, { place: { _id: 'p2' }, trip: { _id: 't1' }, insights: { state: { home: true } } });
    same(withState, { place: null, insights: undefined });
    same(user, { insights: { state: {} }, place: { _id: 'p2' } });
  });

  it('lets a feature field named like a core field replace it in place', () => {
    same(user, { description: 'from a feature', extra: 1 });
    same(user, { metadata: null });
  });
});
