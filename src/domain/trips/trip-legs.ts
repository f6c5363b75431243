import type { Position } from '../../geo/types.js';
import type { EventType } from '../events/event.js';
import { newId } from '../ids.js';
import { DEFAULT_APPROACHING_THRESHOLD_MINUTES, hasLegs, isTripActive, type Trip, type TripEta } from './trip.js';
import {
  destinationTypeOf,
  isLegActive,
  LEG_EVENTS,
  type SettableLegStatus,
  type TripLeg,
  type TripLegInput,
} from './trip-leg.js';

/**
 * One event a legs change owes: its type and, for a leg event, the leg as it was when the event
 * happened (a leg may arrive and complete in one update; each event shows its own moment).
 */
export interface LegEvent {
  type: EventType;
  leg?: TripLeg;
}

/** A trip after a legs change, with the events it owes in order. */
export interface LegsChange {
  trip: Trip;
  events: LegEvent[];
}

/**
 * The legs of a trip started at `now`: the first `started`, the others `pending`. `locate` gives an
 * address its point (null when no imported region knows it: the leg then has no ETA and arrives
 * only when a client says so).
 */
export function newLegs(inputs: TripLegInput[], now: number, locate: (address: string) => Position | null): TripLeg[] {
  return inputs.map((input, i) => {
    const type = destinationTypeOf(input);
    return {
      id: newId(),
      status: i === 0 ? 'started' : 'pending',
      destination: {
        type,
        geofenceId: input.destinationGeofenceId ?? null,
        geofenceTag: input.destinationGeofenceTag ?? null,
        geofenceExternalId: input.destinationGeofenceExternalId ?? null,
        address: input.address ?? null,
        location:
          type === 'coordinates'
            ? (input.coordinates ?? null)
            : type === 'address' && input.address
              ? locate(input.address)
              : null,
        arrivalRadius: input.arrivalRadius ?? null,
      },
      stopDuration: input.stopDuration ?? null,
      metadata: input.metadata ?? null,
      eta: null,
      createdAt: now,
      updatedAt: now,
      arrivedAt: null,
      completedAt: null,
    };
  });
}

/** The leg being travelled, if any. */
export function currentLeg(trip: Trip): TripLeg | null {
  if (!hasLegs(trip) || !trip.currentLegId) return null;
  return trip.legs.find((l) => l.id === trip.currentLegId) ?? null;
}

/**
 * The trip with its destination fields and ETA mirroring the current leg's, as the SDKs show a
 * trip's destination (a leg by address or coordinates has no destination geofence).
 */
export function mirrorCurrentLeg(trip: Trip): Trip {
  const leg = currentLeg(trip);
  if (!leg) return trip;
  return {
    ...trip,
    destinationGeofenceTag: leg.destination.geofenceTag,
    destinationGeofenceExternalId: leg.destination.geofenceExternalId,
    destinationLocation: leg.destination.location,
    eta: leg.eta,
  };
}

/** The trip with one leg replaced. */
function withLeg(trip: Trip, leg: TripLeg): Trip {
  return { ...trip, legs: trip.legs!.map((l) => (l.id === leg.id ? leg : l)) };
}

/** Whether no leg is waiting after the current one: its arrival is the trip's. */
function isLastLeg(trip: Trip): boolean {
  return !trip.legs!.some((l) => l.status === 'pending');
}

/** A leg moved to `status` at `now`, with its event. */
function legTo(leg: TripLeg, status: TripLeg['status'], now: number): { leg: TripLeg; event: LegEvent | null } {
  const next: TripLeg = { ...leg, status, updatedAt: now };
  if (status === 'arrived') next.arrivedAt = now;
  if (status === 'completed' || status === 'canceled') next.completedAt = now;
  if (status === 'started' || status === 'approaching') {
    next.arrivedAt = null;
    next.completedAt = null;
  }
  if (status === 'pending' || status === 'expired') return { leg: next, event: null };
  return { leg: next, event: { type: LEG_EVENTS[status], leg: next } };
}

/**
 * After the current leg is done (completed or canceled): the first pending leg starts, else the trip
 * ends, `completed` when any leg was completed and `canceled` when every one was canceled.
 */
function startNextLeg(trip: Trip, now: number, events: LegEvent[]): Trip {
  const pending = trip.legs!.find((l) => l.status === 'pending');
  if (pending) {
    const started = legTo(pending, 'started', now);
    if (started.event) events.push(started.event);
    // The trip's own `arrived`/`approaching` belonged to the leg that was last; a new leg starts it again.
    const status = isTripActive(trip) ? 'started' : trip.status;
    return { ...withLeg(trip, started.leg), currentLegId: pending.id, status, arrivedAt: null };
  }
  if (!isTripActive(trip)) return { ...trip, currentLegId: null };
  const anyCompleted = trip.legs!.some((l) => l.status === 'completed');
  events.push({ type: 'user.stopped_trip' });
  return {
    ...trip,
    currentLegId: null,
    eta: null,
    status: anyCompleted ? 'completed' : 'canceled',
    completedAt: now,
    updatedAt: now,
  };
}

/**
 * A client sets a leg's status (PATCH). `completed` or `canceled` on the current leg moves the trip
 * on to the next pending leg (or ends it); on another leg it only marks that leg done.
 * `started`, `approaching` or `arrived` make the leg the current one: a leg in progress before it
 * goes back to `pending`. The current status again changes nothing.
 */
export function withLegStatus(trip: Trip, legId: string, status: SettableLegStatus, now: number): LegsChange {
  const leg = trip.legs!.find((l) => l.id === legId)!;
  if (leg.status === status) return { trip, events: [] };
  const events: LegEvent[] = [];
  let next: Trip = { ...trip, updatedAt: now };
  if (status === 'completed' || status === 'canceled') {
    const done = legTo(leg, status, now);
    next = withLeg(next, done.leg);
    if (done.event) events.push(done.event);
    if (trip.currentLegId === leg.id) next = startNextLeg(next, now, events);
    else if (!next.legs!.some((l) => isLegActive(l) || l.status === 'pending')) next = startNextLeg(next, now, events);
    return { trip: mirrorCurrentLeg(next), events };
  }
  const current = currentLeg(next);
  if (current && current.id !== leg.id && isLegActive(current)) {
    next = withLeg(next, { ...current, status: 'pending', eta: null, updatedAt: now, arrivedAt: null });
  }
  const moved = legTo(leg, status, now);
  next = { ...withLeg(next, moved.leg), currentLegId: leg.id };
  if (moved.event) events.push(moved.event);
  next = withTripArrival(next, moved.leg, now, events);
  return { trip: mirrorCurrentLeg(next), events };
}

/** The trip's own approaching/arrived when its last leg gets there (its one destination is the last stop). */
function withTripArrival(trip: Trip, leg: TripLeg, now: number, events: LegEvent[]): Trip {
  if (!isTripActive(trip) || !isLastLeg(trip)) return trip;
  if (leg.status === 'arrived' && trip.status !== 'arrived') {
    events.push({ type: 'user.arrived_at_trip_destination' });
    return { ...trip, status: 'arrived', arrivedAt: now };
  }
  if (leg.status === 'approaching' && trip.status === 'started') {
    events.push({ type: 'user.approaching_trip_destination' });
    return { ...trip, status: 'approaching' };
  }
  return trip;
}

/**
 * Moves the current leg on after a location update at `at` (the update's time): `arrived` when the
 * user is at its destination, else `approaching` when its ETA is at or under the trip's threshold;
 * an arrived leg completes once its `stopDuration` (minutes; none: at once) has passed, and the next
 * leg starts. Never moves a leg backwards.
 */
export function advancedLegs(
  trip: Trip,
  update: { eta: TripEta | null; atDestination: boolean; at: number },
): LegsChange {
  const events: LegEvent[] = [];
  let leg = currentLeg(trip);
  if (!leg || !isTripActive(trip) || !isLegActive(leg)) return { trip, events };
  let next = trip;
  const move = (status: TripLeg['status']) => {
    const moved = legTo(leg!, status, update.at);
    leg = moved.leg;
    next = withLeg(next, leg);
    if (moved.event) events.push(moved.event);
  };
  if (leg.status !== 'arrived') {
    if (update.atDestination) move('arrived');
    else {
      const threshold = trip.approachingThreshold ?? DEFAULT_APPROACHING_THRESHOLD_MINUTES;
      if (leg.status === 'started' && update.eta !== null && update.eta.duration <= threshold) move('approaching');
    }
    next = withTripArrival(next, leg, update.at, events);
  }
  if (leg.status === 'arrived' && update.at - (leg.arrivedAt ?? update.at) >= (leg.stopDuration ?? 0) * 60_000) {
    move('completed');
    next = startNextLeg(next, update.at, events);
  }
  return { trip: mirrorCurrentLeg(next), events };
}

/**
 * The legs in the order `ids` gives (every leg's `_id` once; the caller checks). The leg in progress
 * stays current; the order says which pending leg comes next.
 */
export function reorderedLegs(trip: Trip, ids: string[], now: number): Trip {
  const byId = new Map(trip.legs!.map((l) => [l.id, l]));
  return { ...trip, legs: ids.map((id) => byId.get(id)!), updatedAt: now };
}
