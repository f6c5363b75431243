import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeLine, mergeChanges, readChanges } from './commit-changes.js';

const tenant = { projectId: 'p1', live: true };

describe('commit-log change lines', () => {
  it('carry a written user’s identities, whatever characters they hold, and null ones', () => {
    const odd = 'dev ice\nwith = and - and %';
    const text = mergeChanges([
      changeLine('users', tenant, 'u1', { userId: 'app user 7', deviceId: odd }),
      changeLine('users', tenant, 'u2', { userId: null, deviceId: '-' }),
      changeLine('users', tenant, 'u3'),
      changeLine('geofences', tenant, 'g1'),
    ]);
    assert.equal(text!.split('\n').length, 4, 'one line per record: no identity breaks a line');
    assert.deepEqual(readChanges(text), [
      { kind: 'users', tenant, id: 'u1', identities: { userId: 'app user 7', deviceId: odd } },
      { kind: 'users', tenant, id: 'u2', identities: { userId: null, deviceId: '-' } },
      { kind: 'users', tenant, id: 'u3' },
      { kind: 'geofences', tenant, id: 'g1' },
    ]);
  });

  it('read by the older four-field reading, a line with identities still names its record', () => {
    const [kind, projectId, live, id] = changeLine('users', tenant, 'u1', { userId: 'a', deviceId: 'b' }).split(' ');
    assert.deepEqual([kind, projectId, live, id], ['users', 'p1', '1', 'u1']);
  });
});
