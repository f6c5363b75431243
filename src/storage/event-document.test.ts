import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../test/helpers/fixtures.js';
import type { LocationEvent } from '../domain/events/event.js';
import { eventGeofence } from '../domain/events/geofence-events.js';
import { eventDocuments } from './event-document.js';

const location: [number, number] = [-73.98, 40.75];
const base = {
  projectId: 'p1',
  live: false,
  createdAt: 1_700_000_000_000,
  actualCreatedAt: 1_700_000_000_500,
  location,
  locationAccuracy: 12,
  replayed: false,
};
const user = (metadata: LocationEvent['user']['metadata'] = null) => ({
  id: 'u1',
  userId: null,
  deviceId: 'd1',
  metadata,
});

describe('eventDocuments', () => {
  it('stores each event as JSON.parse reads it back, whichever events share their origin', () => {
    const md = { plan: 'pro', 'quote"d': 'a\\nb' };
    const events: LocationEvent[] = [
      {
        ...base,
        id: 'e1',
        type: 'user.exited_geofence',
        user: user(md),
        confidence: 3,
        duration: 4.5,
        geofence: { _id: 'g1', description: 'x' },
      },
      {
        ...base,
        id: 'e2',
        type: 'user.entered_geofence',
        user: user(md),
        confidence: 2,
        // A snapshot as eventGeofence makes it: printed from the text made with it.
        geofence: eventGeofence(
          makeCircleGeofence(
            { projectId: 'p1', live: false },
            { id: 'g2', tag: 't"q', metadata: { n: 2.5, q: 'a"b' } },
          ),
        ),
      },
      // Another origin: the next update of a replay, and a field left undefined.
      {
        ...base,
        id: 'e3',
        type: 'user.started_trip',
        user: user(),
        createdAt: base.createdAt + 1000,
        confidence: 3,
        replayed: undefined,
        trip: { _id: 't1' },
        extra: { place: null },
      },
      {
        ...base,
        id: 'e4',
        type: 'user.entered_geofence',
        user: { ...user(), userId: 'alice' },
        createdAt: base.createdAt + 1000,
        confidence: 1,
      },
    ];
    const docs = eventDocuments(events);
    assert.equal(docs.length, events.length);
    for (const [i, doc] of docs.entries()) assert.deepEqual(JSON.parse(doc), JSON.parse(JSON.stringify(events[i])));
    assert.doesNotMatch(docs[2]!, /"replayed"/);
    assert.match(docs[3]!, /"userId":"alice"/);
  });

  it('prints a frozen snapshot shared by several events the same in each', () => {
    const fence = Object.freeze({ _id: 'g1', description: 'Caf\u00e9', metadata: { plan: 'pro' } });
    const events: LocationEvent[] = ['e1', 'e2'].map((id) => ({
      ...base,
      id,
      type: 'user.entered_geofence',
      user: user(),
      confidence: 3,
      geofence: fence,
    }));
    for (const [i, doc] of eventDocuments(events).entries())
      assert.deepEqual(JSON.parse(doc), JSON.parse(JSON.stringify(events[i])));
  });

  it('stores nothing for no events', () => {
    assert.deepEqual(eventDocuments([]), []);
  });
});
