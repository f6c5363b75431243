import type { FastifyInstance } from 'fastify';
import { placeSnapshot } from '../../domain/places/place.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { latLng } from '../params/index.js';
import { presentGeofence } from '../presenters/geofence-presenter.js';

export function contextRoutes(app: FastifyInstance, { services, clock }: AppDeps): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/context',
      auth: 'publishable',
      tag: 'Context',
      summary: 'Context for coordinates (stateless, anonymous)',
      query: { coordinates: latLng().required() },
    },
    async ({ query, tenant, req }) => {
      const found = await services.context.at(tenant, query.coordinates, {
        places: req.auth!.project.features.places,
      });
      const now = clock.now();
      const context = {
        live: tenant.live,
        geofences: found.geofences.map((g) => presentGeofence(g, now, { geometry: false })),
        ...(found.place ? { place: placeSnapshot(found.place) } : {}),
        ...found.regions,
      };
      // Mobile SDKs read `context`; radar-sdk-js 5.x reads the same fields at the top level.
      return { context, ...context };
    },
  );
}
