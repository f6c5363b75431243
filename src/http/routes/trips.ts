import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidParam, missingParam } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import { SETTABLE_TRIP_STATUSES, TRIP_STATUSES, type Trip } from '../../domain/trips/trip.js';
import type { TripChange, TripContext } from '../../domain/trips/trip-engine.js';
import { SETTABLE_LEG_STATUSES } from '../../domain/trips/trip-leg.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { createdPageParams, pathSegment } from '../params/common.js';
import { bool, commaList, oneOf } from '../params/index.js';
import { param } from '../params/param.js';
import { tripName, tripOptionFields, tripOptionsSpec } from '../params/trip-options.js';
import { presentEvent } from '../presenters/event-presenter.js';
import { presentTrip, presentTripLeg } from '../presenters/trip-presenter.js';

const statusParam = () => oneOf(SETTABLE_TRIP_STATUSES);

export function tripRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const tag = 'Trips';
  const ctxOf = (tenant: Tenant, req: FastifyRequest): TripContext => ({
    tenant,
    expiryMinutes: req.auth!.project.tripExpiryMinutes,
    webhooks: req.auth!.project.webhooks,
    destinations: req.auth!.project.destinations,
  });
  const withPath = async (tenant: Tenant, trip: Trip) =>
    presentTrip(trip, (await services.trips.locations(tenant, [trip])).get(trip.id) ?? []);
  const answer = async (tenant: Tenant, change: TripChange) => ({
    trip: await withPath(tenant, change.trip),
    events: change.events.map(presentEvent),
  });

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/trips',
      auth: 'publishable',
      tag,
      summary: 'Start a trip for a user (by userId, else deviceId)',
      body: { userId: tripName(), deviceId: tripName(), ...tripOptionsSpec },
    },
    async ({ body, tenant, req }) => {
      const { userId, deviceId, ...options } = body;
      if (userId === undefined && deviceId === undefined) throw missingParam('userId');
      return answer(tenant, await services.trips.start(ctxOf(tenant, req), { userId, deviceId }, options));
    },
  );

  defineRoute(
    app,
    {
      method: 'PATCH',
      url: '/v1/trips/:id',
      auth: 'publishable',
      tag,
      summary: 'Stop or restart a trip (by _id or externalId); status in the query or body',
      params: { id: pathSegment() },
      body: { status: statusParam().required() },
      bodyFromQuery: true,
    },
    async ({ params, body, tenant, req }) =>
      answer(tenant, await services.trips.update(ctxOf(tenant, req), params.id, 'id', { status: body.status })),
  );

  defineRoute(
    app,
    {
      method: 'PATCH',
      url: '/v1/trips/:externalId/update',
      auth: 'publishable',
      tag,
      summary: 'Update a trip as the web SDK does: options, and optionally status',
      params: { externalId: pathSegment() },
      body: { status: statusParam(), ...tripOptionFields },
      bodyFromQuery: true,
    },
    async ({ params, body, tenant, req }) => {
      const { status, ...options } = body;
      // completeTrip/cancelTrip resend the options saved at startTrip, stale after an updateTrip:
      // a trip being stopped keeps the options it has.
      const stopping = status === 'completed' || status === 'canceled';
      const change = stopping ? { status } : { status, options };
      return answer(tenant, await services.trips.update(ctxOf(tenant, req), params.externalId, 'externalId', change));
    },
  );

  defineRoute(
    app,
    {
      method: 'PATCH',
      url: '/v1/trips/:tripId/legs/:legId',
      auth: 'publishable',
      tag,
      summary: 'Set the status of one leg of a multi-destination trip (trip by _id or externalId)',
      params: { tripId: pathSegment(), legId: pathSegment() },
      body: { status: oneOf(SETTABLE_LEG_STATUSES).required() },
      bodyFromQuery: true,
    },
    async ({ params, body, tenant, req }) => {
      const change = await services.trips.updateLeg(ctxOf(tenant, req), params.tripId, params.legId, body.status);
      return { ...(await answer(tenant, change)), leg: presentTripLeg(change.leg) };
    },
  );

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/v1/trips/:tripId/legs',
      auth: 'publishable',
      tag,
      summary: 'Reorder the legs of a multi-destination trip: `legs`, every leg _id once, in the new order',
      params: { tripId: pathSegment() },
      body: { legs: legIdList().required() },
    },
    async ({ params, body, tenant, req }) =>
      answer(tenant, await services.trips.reorderLegs(ctxOf(tenant, req), params.tripId, body.legs)),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/trips/:id',
      auth: 'secret',
      tag,
      summary: 'Get a trip by _id or externalId (fields at top level)',
      params: { id: pathSegment() },
    },
    async ({ params, tenant, req }) => withPath(tenant, await services.trips.get(ctxOf(tenant, req), params.id, 'id')),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/trips',
      auth: 'secret',
      tag,
      summary: 'List trips, soonest ETA first (trips without an ETA last), or newest first',
      query: {
        ...createdPageParams(),
        active: bool(),
        status: commaList({ values: TRIP_STATUSES }),
        destinationGeofenceTag: tripName(),
        destinationGeofenceExternalId: tripName(),
        userId: tripName().describe('the user _id, userId or deviceId'),
        sortBy: oneOf(['eta', 'createdAt'] as const).default('eta'),
        includeLocations: bool().default(false),
      },
    },
    async ({ query, tenant, req }) => {
      const { status, userId, includeLocations, ...rest } = query;
      const page = await services.trips.list(ctxOf(tenant, req), { ...rest, statuses: status, user: userId });
      const paths = includeLocations ? await services.trips.locations(tenant, page.items) : null;
      const trips = page.items.map((t) => presentTrip(t, paths ? (paths.get(t.id) ?? []) : undefined));
      return { meta: { hasMore: page.hasMore }, trips };
    },
  );
}

/** Leg ids in order: an array of strings (or a comma-separated string, for form bodies). */
function legIdList() {
  return param({ type: 'array', items: { type: 'string' } }, (raw, name): string[] => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : null;
    if (!items || items.length === 0) throw invalidParam(name, 'must be an array of leg ids.');
    return items.map((id, i) => {
      if (typeof id !== 'string' || id.trim() === '') throw invalidParam(`${name}[${i}]`, 'must be a leg id.');
      return id.trim();
    });
  });
}
