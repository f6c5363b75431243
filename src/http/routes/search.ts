import type { FastifyInstance } from 'fastify';
import { invalidParam } from '../../domain/errors.js';
import type { GeofenceHit } from '../../domain/search/geofence-search.js';
import { maxTravelMeters } from '../../domain/search/travel-speed.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { jsonListBody } from '../json-list-body.js';
import { searchLimit, searchRadius } from '../params/common.js';
import { bool, commaList, latLng, metadata, num, oneOf } from '../params/index.js';
import { GeofenceJson, sharedGeofenceJson } from '../presenters/geofence-json.js';
import { userJson } from '../presenters/user-presenter.js';

const RADIUS_METERS = { min: 100, max: 10_000, default: 1000 };
const RADIUS_MINUTES = { min: 1, max: 10_000, default: 10 };

export function searchRoutes(app: FastifyInstance, { services, clock }: AppDeps): void {
  const tag = 'Search';
  // Type-inferred filters; the web SDK's `metadata=[object Object]` is dropped, not refused.
  const metadataFilter = () => metadata({ inferTypes: true, ignoreGarbage: true });
  // Hits are sent as the kept text of each fence: printing a fence costs more than finding it.
  const fenceJson = sharedGeofenceJson();
  const fenceJsonWithGeometry = new GeofenceJson({ geometry: true }, 20_000);

  const fencesBody = (hits: GeofenceHit[], json: GeofenceJson): JsonText => {
    const now = clock.now();
    // 100 fences with 10,000-position outlines print 25 MB: a chunk at a time (json-list-body.ts).
    return new JsonText(
      jsonListBody('{"meta":{"code":200},"geofences":[', hits.length, (i) => json.of(hits[i]!.geofence, now), ']}'),
    );
  };

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/search/geofences',
      auth: 'publishable',
      tag,
      summary: 'Geofences near a point, nearest first',
      query: {
        near: latLng().required(),
        radius: searchRadius(),
        tags: commaList({ max: 100 }),
        metadata: metadataFilter(),
        limit: searchLimit(),
        includeGeometry: bool().default(true),
      },
    },
    // Not async: a search of a loaded index then costs no promise.
    ({ query, tenant }) => {
      const hits = services.geofenceSearch.near(tenant, {
        near: query.near,
        radiusMeters: query.radius,
        tags: query.tags,
        metadata: query.metadata,
        limit: query.limit,
      });
      const json = query.includeGeometry ? fenceJsonWithGeometry : fenceJson;
      return hits instanceof Promise ? hits.then((h) => fencesBody(h, json)) : fencesBody(hits, json);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/search/users',
      auth: 'secret',
      tag,
      summary: 'Users near a point, nearest first',
      query: {
        near: latLng().required(),
        radius: num({ min: 0, exclusiveMin: true }).describe(
          'meters (100-10000, default 1000); with mode, minutes of travel (1-10000, default 10)',
        ),
        mode: oneOf(['foot', 'bike', 'car'] as const),
        metadata: metadataFilter(),
        limit: searchLimit(),
      },
    },
    async ({ query, tenant }) => {
      const bounds = query.mode ? RADIUS_MINUTES : RADIUS_METERS;
      const radius = query.radius ?? bounds.default;
      if (radius < bounds.min || radius > bounds.max) {
        const unit = query.mode ? 'minutes of travel, as mode is given' : 'meters';
        throw invalidParam('radius', `must be a number between ${bounds.min} and ${bounds.max} (${unit}).`);
      }
      const hits = await services.userSearch.near(tenant, {
        near: query.near,
        // With a mode, the router times each user within the straight-line reach of the fastest travel.
        radiusMeters: query.mode ? maxTravelMeters(query.mode, radius) : radius,
        travel: query.mode ? { mode: query.mode, minutes: radius } : undefined,
        metadata: query.metadata,
        limit: query.limit,
      });
      const now = clock.now();
      const print = (i: number) => userJson(hits[i]!.user, fenceJson.list(hits[i]!.geofences, now));
      return new JsonText(jsonListBody('{"meta":{"code":200},"users":[', hits.length, print, ']}'));
    },
  );
}
