import type { Beacon } from '../beacons/beacon.js';
import { BeaconsTracker } from '../beacons/beacons-tracker.js';
import { FraudTracker } from '../fraud/fraud-tracker.js';
import { InsightsTracker } from '../insights/insights-tracker.js';
import type { PlaceService } from '../places/place-service.js';
import { PlacesTracker } from '../places/places-tracker.js';
import type { BeaconStore } from '../ports/beacon-store.js';
import type { RegionService } from '../regions/region-service.js';
import { RegionsTracker } from '../regions/regions-tracker.js';
import { SegmentsTracker } from '../segments/segments-tracker.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { Trip } from '../trips/trip.js';
import type { TripEngine } from '../trips/trip-engine.js';
import { type TripOptionsReader, TripTracker } from '../trips/trip-tracker.js';
import type { TrackParticipant } from './track-participant.js';

/**
 * What the domain shows in the HTTP layer's shapes, handed in by the app's wiring (src/http/track-wire.ts):
 * a trip (`user.trip`, trip event snapshots, through the trip engine), a beacon (`user.beacons`, beacon
 * events), and track's `tripOptions` parameter as the API reads it. The domain only passes them on.
 */
export interface TrackWire {
  trip: (trip: Trip) => Record<string, unknown>;
  beacon: (beacon: Beacon) => Record<string, unknown>;
  readTripOptions: TripOptionsReader;
}

export interface PipelineDeps {
  trips: TripEngine;
  regions: RegionService;
  places: PlaceService;
  settings: SettingsService;
  beacons: BeaconStore;
  wire: TrackWire;
}

/**
 * Every step of a track, in order. Each sees the update and the `user.state` that the steps before it
 * left (runParticipants merges each step's state at once); its events follow theirs and its `user`
 * fields win a clash. The first and last steps are track.ts's own, around this list.
 */
export function trackPipeline(d: PipelineDeps): TrackParticipant[] {
  return [
    // geofences (track.ts, first): memberships and geofence events, from the tenant's fence index.
    // trips: user.trip and trip events; reads the geofences entered and inside (its destination).
    new TripTracker(d.trips, d.wire.readTripOptions),
    // regions: user.country, state, dma, postalCode and region events; keeps user.state.regions.
    new RegionsTracker(d.regions),
    // places: user.place, user.topChains and place events; keeps user.state.places.
    new PlacesTracker(d.places, d.settings),
    // insights: user.insights, home, office, traveling and commuting events; reads user.state.regions.
    new InsightsTracker(),
    // beacons: user.beacons and beacon events, from the body's `beacons`; reads nothing of the others.
    new BeaconsTracker(d.beacons, d.wire.beacon),
    // fraud: user.fraud, from the update and the previous user; reads nothing of the others.
    new FraudTracker(),
    // segments: user.segments; reads user.state.insights (insights) and user.state.places (places).
    new SegmentsTracker(),
    // webhooks (track.ts, last): a delivery of each event above to each webhook, written with them.
  ];
}
