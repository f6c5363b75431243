import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { searchLimit } from '../params/common.js';
import { latLng, num } from '../params/index.js';
import { presentBeacon } from '../presenters/beacon-presenter.js';

/** Spec Limits: beacons within 1 kilometer are synced to the client SDK. */
const MAX_RADIUS_METERS = 1000;

/**
 * `GET /v1/search/beacons`, the SDKs' beacon sync: enabled beacons near the device, nearest first, and
 * in `meta.settings.beacons.uuids` the distinct UUIDs to range for (iOS ranges by UUID region).
 */
export function searchBeaconRoutes(app: FastifyInstance, { services }: AppDeps): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/search/beacons',
      auth: 'publishable',
      tag: 'Search',
      summary: 'Enabled beacons near a point (within 1 km), nearest first, and their UUIDs',
      query: {
        near: latLng().required(),
        radius: num({ min: 1, max: MAX_RADIUS_METERS }).default(MAX_RADIUS_METERS),
        limit: searchLimit(),
      },
    },
    async ({ query, tenant }) => {
      const beacons = await services.beacons.near(tenant, query.near, query.radius, query.limit);
      const uuids = [...new Set(beacons.map((b) => b.uuid))];
      return { meta: { settings: { beacons: { uuids } } }, beacons: beacons.map(presentBeacon) };
    },
  );
}
