import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalidParam, missingParam } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import {
  SETTABLE_TRIP_STATUSES,
  TRIP_MODES,
  TRIP_STATUSES,
  type Trip,
  type TripOptions,
} from '../../domain/trips/trip.js';
import type { TripChange, TripContext } from '../../domain/trips/trip-engine.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { cursor, listLimit, pathSegment } from '../params/common.js';
import { bool, commaList, datetime, isAbsent, metadata, num, oneOf, parseParams, str } from '../params/index.js';
import { presentEvent } from '../presenters/event-presenter.js';
import { presentTrip } from '../presenters/trip-presenter.js';

const name = () => str({ maxLength: 256 });

/** Trip options as every client sends them; `approachingThreshold` may be a string (iOS). */
const optionFields = {
  destinationGeofenceTag: name(),
  destinationGeofenceExternalId: name(),
  mode: oneOf(TRIP_MODES, { caseInsensitive: true }),
  metadata: metadata(),
  approachingThreshold: num({ min: 1, max: 1440 }).describe('minutes of ETA at which the trip becomes approaching'),
  scheduledArrivalAt: datetime(),
};
const tripOptionsSpec = { externalId: name().required(), ...optionFields };
const statusParam = () => oneOf(SETTABLE_TRIP_STATUSES);

/**
 * Reads track's `tripOptions` (an object, or JSON text in form bodies); null when absent. Errors
 * name the nested parameter, e.g. `tripOptions.mode`.
 */
export function readTripOptions(raw: unknown): TripOptions | null {
  if (isAbsent(raw)) return null;
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidParam('tripOptions', 'must be a dictionary or a JSON string of one.');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalidParam('tripOptions', 'must be a dictionary.');
  try {
    return parseParams(tripOptionsSpec, value);
  } catch (err) {
    if (!(err instanceof ApiError) || err.param === undefined) throw err;
    throw new ApiError(err.status, `tripOptions.${err.param}`, `tripOptions.${err.message}`);
  }
}

export function tripRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const tag = 'Trips';
  const ctxOf = (tenant: Tenant, req: FastifyRequest): TripContext => ({
    tenant,
    expiryMinutes: req.auth!.project.tripExpiryMinutes,
    webhooks: req.auth!.project.webhooks,
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
      body: { userId: name(), deviceId: name(), ...tripOptionsSpec },
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
      body: { status: statusParam(), ...optionFields },
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
        limit: listLimit(),
        createdBefore: cursor(),
        createdAfter: cursor(),
        active: bool(),
        status: commaList({ values: TRIP_STATUSES }),
        destinationGeofenceTag: name(),
        destinationGeofenceExternalId: name(),
        userId: name().describe('the user _id, userId or deviceId'),
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
