import type { TrackWire } from '../domain/tracking/pipeline.js';
import { readTripOptions } from './params/trip-options.js';
import { presentBeacon } from './presenters/beacon-presenter.js';
import { presentTrip } from './presenters/trip-presenter.js';

/** The API's shapes the track pipeline answers in, and its reading of `tripOptions` (see `TrackWire`). */
export const trackWire: TrackWire = {
  trip: (trip) => presentTrip(trip),
  beacon: presentBeacon,
  readTripOptions,
};
