import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LocationContext } from '../../domain/context/context-service.js';
import { jurisdictionFields } from '../../domain/jurisdiction/jurisdiction-fields.js';
import { placeSnapshot } from '../../domain/places/place.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Position } from '../../geo/types.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { latLng } from '../params/index.js';
import { sharedGeofenceJson } from '../presenters/geofence-json.js';

export function contextRoutes(app: FastifyInstance, { services, clock }: AppDeps): void {
  /** Context under jurisdiction lists: 451 for a refused country, else the regions with their fields. */
  const judged = async (tenant: Tenant, coordinates: Position, req: FastifyRequest) => {
    const verdict = await services.jurisdiction.at(tenant, coordinates, 'coordinates');
    const found = await services.context.at(tenant, coordinates, { places: req.auth!.project.features.places });
    if (!verdict) return body(found, tenant.live);
    const { inExclusionZone, ...regions } = jurisdictionFields(verdict, found.regions);
    return body(
      { ...found, regions: { ...found.regions, ...regions, inExclusionZone } as typeof found.regions },
      tenant.live,
    );
  };
  // The fences are sent as the kept text of each: printing a fence costs more than finding it.
  const fenceJson = sharedGeofenceJson();
  const body = (found: LocationContext, live: boolean): JsonText => {
    // The same text twice: built once, with the fences as their kept JSON.
    const fields = JSON.stringify(
      found.place ? { place: placeSnapshot(found.place), ...found.regions } : found.regions,
    );
    const more = fields === '{}' ? '' : `,${fields.slice(1, -1)}`;
    const geofences = fenceJson.list(found.geofences, clock.now());
    // Mobile SDKs read `context`; radar-sdk-js 5.x reads the same fields at the top level. Joined, not
    // sliced: a slice copies the joined text, which is written out (and so flattened) once anyway.
    const fieldsText = `"live":${live},"geofences":${geofences}${more}`;
    return new JsonText(`{"meta":{"code":200},"context":{${fieldsText}},${fieldsText}}`);
  };
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
    // Not async: a context found at once (index loaded, no place to look up, no jurisdiction lists)
    // then costs no promise.
    ({ query, tenant, req }) => {
      const lists = services.sdkSettings.peek(tenant);
      if (lists === undefined || lists?.jurisdiction) return judged(tenant, query.coordinates, req);
      const found = services.context.at(tenant, query.coordinates, {
        places: req.auth!.project.features.places,
      });
      return found instanceof Promise ? found.then((f) => body(f, tenant.live)) : body(found, tenant.live);
    },
  );
}
