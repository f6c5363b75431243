import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeUser } from '../../../test/helpers/fixtures.js';
import { presentUser, userJson } from './user-presenter.js';

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
