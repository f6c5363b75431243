import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import type { LocationEvent } from '../../domain/events/event.js';
import { eventGeofence } from '../../domain/events/geofence-events.js';
import { eventForJson, eventsJson, presentEvent } from './event-presenter.js';

const base: LocationEvent = {
  id: 'e1',
  projectId: 'p1',
  live: false,
  type: 'user.entered_geofence',
  createdAt: 1_700_000_000_000,
  actualCreatedAt: 1_700_000_000_250,
  user: { id: 'u1', userId: null, deviceId: 'd"1', metadata: { plan: 'pro' } },
  location: [-73.98, 40.75],
  locationAccuracy: 12,
  confidence: 3,
  geofence: { _id: 'g1', description: 'Store', tag: 'store' },
};

describe('eventForJson', () => {
  const same = (e: LocationEvent) => assert.equal(JSON.stringify(eventForJson(e)), JSON.stringify(presentEvent(e)));

  it('prints presentEvent, unset fields left out and replayed false by default', () => {
    same(base);
    same({ ...base, type: 'user.exited_geofence', duration: 12.5, replayed: true });
    same({ ...base, user: { id: 'u2', userId: null, deviceId: null, metadata: null }, geofence: undefined });
    assert.match(JSON.stringify(eventForJson(base)), /"replayed":false}$/);
  });

  it("puts a type's extra fields between the snapshots and the location", () => {
    const place = { _id: 'pl1', name: 'Café', chain: null };
    same({
      ...base,
      type: 'user.entered_place',
      geofence: undefined,
      extra: { place, alternatePlaces: [], region: null },
    });
    same({ ...base, trip: { _id: 't1', status: 'started' }, extra: {} });
  });

  it('lets an extra field named like a core field replace it in place', () => {
    same({ ...base, extra: { confidence: 1, note: 'x' } });
  });

  it('leaves out null fields as presentEvent does', () => {
    same({ ...base, geofence: null, trip: null, duration: null } as unknown as LocationEvent);
  });
});

describe('eventsJson', () => {
  const same = (events: LocationEvent[]) => assert.equal(eventsJson(events), JSON.stringify(events.map(presentEvent)));

  it('prints presentEvent for each event of an update, whatever they share', () => {
    const user = { id: 'u1', userId: 'app"1', deviceId: 'd1', metadata: { plan: 'pro' } };
    // A snapshot as the tracker makes it (its text printed once), and a plain object printed each time.
    const fence = eventGeofence(
      makeCircleGeofence({ projectId: 'p1', live: false }, { id: 'g1', description: 'Caf\u00e9', metadata: { n: 1 } }),
    );
    const update = { ...base, user };
    same([]);
    same([
      { ...update, id: 'e1', type: 'user.exited_geofence', geofence: fence, duration: 3.25, confidence: 1 },
      { ...update, id: 'e2', geofence: { _id: 'g2', description: 'B' }, confidence: 2 },
      { ...update, id: 'e3', type: 'user.dwelled_in_geofence', geofence: fence, duration: 12, replayed: true },
    ]);
    // The same fence printed again from its kept text, and an update whose origin differs midway.
    same([
      { ...update, id: 'e4', geofence: fence },
      { ...update, id: 'e5', createdAt: base.createdAt + 1000, location: [1.5, -2.25], geofence: fence },
      { ...update, id: 'e6', user: { ...user, metadata: null }, geofence: fence },
    ]);
  });

  it('prints events with extra fields, unset fields and missing ids as presentEvent does', () => {
    same([
      { ...base, id: 'e1', type: 'user.entered_place', geofence: undefined, extra: { place: { _id: 'p1' } } },
      { ...base, id: 'e2', trip: { _id: 't1', status: 'started' }, extra: {} },
      { ...base, geofence: null, trip: null, duration: null, live: null } as unknown as LocationEvent,
      { ...base, id: undefined, locationAccuracy: Number.NaN } as unknown as LocationEvent,
      { ...base, id: 'e5', user: { id: 'u2', userId: null, deviceId: null, metadata: null } },
    ]);
  });
});
