import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LocationEvent } from '../../domain/events/event.js';
import { eventForJson, presentEvent } from './event-presenter.js';

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
