import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LocationEvent } from '../events/event.js';
import type { User } from '../users/user.js';
import { type ParticipantInput, runParticipants } from './run-participants.js';
import type { TrackParticipant, TrackUpdate } from './track-participant.js';
import type { TrackRequest } from './track-request.js';

const event = (type: string) => ({ type }) as unknown as LocationEvent;

function input(): ParticipantInput {
  const req = {
    tenant: { projectId: 'p', live: false },
    project: {},
    location: [-73.95, 40.65],
    accuracyMeters: 12,
    stopped: undefined,
    replayed: false,
    body: { beacons: null },
  } as unknown as TrackRequest;
  const user = { id: 'u1', state: {} } as unknown as User;
  return {
    req,
    user,
    previous: null,
    at: 1000,
    now: 2000,
    entered: [],
    inside: [],
    unit: {} as ParticipantInput['unit'],
  };
}

describe('runParticipants', () => {
  it('runs participants that answer at once and those that wait, in order, each seeing the state before it', async () => {
    const seen: TrackUpdate[] = [];
    const participants: TrackParticipant[] = [
      {
        name: 'at-once',
        onTrack: (u) => {
          seen.push(u);
          return { events: [event('a')], userFields: { x: 1, y: 1 }, state: { first: { n: 1 } } };
        },
      },
      {
        name: 'waits',
        onTrack: async (u) => {
          seen.push(u);
          await new Promise((r) => setTimeout(r, 2));
          return { events: [event('b')], userFields: { y: 2 }, state: { second: u.user.state.first } };
        },
      },
      {
        name: 'at-once-again',
        onTrack: (u) => {
          seen.push(u);
          return { events: [event('c')] };
        },
      },
    ];
    const i = input();
    const merged = await runParticipants(participants, i);
    assert.deepEqual(
      merged.events.map((e) => e.type),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(merged.userFields, { x: 1, y: 2 });
    assert.deepEqual(i.user.state, { first: { n: 1 }, second: { n: 1 } });
    assert.equal(seen.length, 3);
    const u = seen[0]!;
    assert.equal(u.user, i.user);
    assert.deepEqual([u.location, u.accuracyMeters, u.stopped, u.at, u.now], [[-73.95, 40.65], 12, false, 1000, 2000]);
  });

  it('rejects with what a participant throws, whether it answers at once or waits', async () => {
    const throwsAtOnce: TrackParticipant = {
      name: 'throws',
      onTrack: () => {
        throw new Error('at once');
      },
    };
    const rejects: TrackParticipant = {
      name: 'rejects',
      onTrack: async () => {
        throw new Error('later');
      },
    };
    await assert.rejects(runParticipants([throwsAtOnce], input()), /at once/);
    await assert.rejects(runParticipants([rejects], input()), /later/);
  });
});
