import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { User } from '../users/user.js';
import { decideUpdatedAt, resolveTrackedUser } from './next-user.js';

const user = (id: string, userId: string | null, updatedAt = 1000) => ({ id, userId, updatedAt }) as User;

describe('resolveTrackedUser', () => {
  it('prefers the userId match', () => {
    const u = user('1', 'alice');
    assert.equal(resolveTrackedUser({ byUserId: u, byDeviceId: null }, 'alice'), u);
  });
  it('falls back to the device user, to which a first userId attaches', () => {
    const device = user('2', null);
    assert.equal(resolveTrackedUser({ byUserId: null, byDeviceId: device }, 'alice'), device);
    assert.equal(resolveTrackedUser({ byUserId: null, byDeviceId: device }, undefined), device);
  });
  it('keeps a logged-in device user for tracks without userId', () => {
    const device = user('3', 'bob');
    assert.equal(resolveTrackedUser({ byUserId: null, byDeviceId: device }, undefined), device);
  });
  it('creates a new user when the device user has another userId, or nothing matches', () => {
    assert.equal(resolveTrackedUser({ byUserId: null, byDeviceId: user('4', 'bob') }, 'alice'), null);
    assert.equal(resolveTrackedUser({ byUserId: null, byDeviceId: null }, 'alice'), null);
  });
});

describe('decideUpdatedAt', () => {
  const now = 10_000;
  it('uses the client time when after the last update and not in the future', () => {
    assert.equal(decideUpdatedAt(user('1', null, 5000), 6000, now), 6000);
    assert.equal(decideUpdatedAt(null, 1, now), 1);
    assert.equal(decideUpdatedAt(null, now, now), now);
  });
  it('uses server time otherwise', () => {
    assert.equal(decideUpdatedAt(user('1', null, 5000), undefined, now), now);
    assert.equal(decideUpdatedAt(user('1', null, 5000), 5000, now), now);
    assert.equal(decideUpdatedAt(user('1', null, 5000), 4000, now), now);
    assert.equal(decideUpdatedAt(null, now + 1, now), now);
  });
});
