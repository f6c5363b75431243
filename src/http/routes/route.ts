import type { FastifyInstance } from 'fastify';
import { invalidParam } from '../../domain/errors.js';
import { distanceMeters } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import { encodePolyline } from '../../routing/polyline.js';
import type { DetailedRoute } from '../../routing/road-router.js';
import { formatDistance, formatDuration, type Units } from '../../routing/route-units.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { commaList, latLng, num, oneOf, param, parseLatLng } from '../params/index.js';

/** The spec's cap on origins × destinations per matrix request. */
export const MATRIX_MAX_ROUTES = 25;

/** Motorbikes drive the car graph re-timed; trucks have a graph of their own (docs/routing.md). */
const MODES = ['foot', 'bike', 'car', 'truck', 'motorbike'] as const;
const UNITS = ['metric', 'imperial'] as const;
const GEOMETRIES = ['linestring', 'polyline', 'polyline5', 'polyline6'] as const;
type Geometry = (typeof GEOMETRIES)[number];

/**
 * `latitude,longitude` points joined by `|` (as the SDKs send matrix points), as `[lon, lat]`; at
 * most `MATRIX_MAX_ROUTES` of them, counted before any is read (one origin can have 25 destinations).
 */
function latLngList() {
  return param({ type: 'string', description: '"latitude,longitude" points joined by |' }, (raw, name) => {
    if (typeof raw !== 'string') throw invalidParam(name, 'must be "latitude,longitude" points joined by |.');
    const parts = raw.split('|', MATRIX_MAX_ROUTES + 1);
    if (parts.length > MATRIX_MAX_ROUTES) throw invalidParam(name, `must have at most ${MATRIX_MAX_ROUTES} points.`);
    return parts.map((s) => parseLatLng(s.trim(), name));
  });
}

export function routeRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const tag = 'Routing';
  const router = services.router;

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/route/distance',
      auth: 'publishable',
      tag,
      summary: 'Travel distance and duration between two points, per mode',
      query: {
        origin: latLng().required(),
        destination: latLng().required(),
        modes: commaList({ values: MODES }).required(),
        units: oneOf(UNITS).required(),
        geometry: oneOf(GEOMETRIES).describe('adds the route line (the mobile SDKs always ask for linestring)'),
        // Sent by the SDKs; the line is returned whole, and every road is usable (no avoid options).
        geometryPoints: num({ integer: true, min: -1 }),
        avoid: commaList({ values: ['tolls', 'highways', 'ferries', 'borderCrossings'] as const }),
      },
    },
    ({ query }) => {
      if (query.modes.length === 0) throw invalidParam('modes', `must list at least one of ${MODES.join(', ')}.`);
      const routes: Record<string, unknown> = {
        geodesic: { distance: formatDistance(distanceMeters(query.origin, query.destination), query.units) },
      };
      for (const mode of new Set(query.modes)) {
        const r = router.routeSync(query.origin, query.destination, mode, query.geometry !== undefined);
        routes[mode] = presentRoute(r, query.units, query.geometry);
      }
      return { routes };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/route/matrix',
      auth: 'publishable',
      tag,
      summary: `Distances and durations from each origin to each destination (at most ${MATRIX_MAX_ROUTES} routes)`,
      query: {
        origins: latLngList().required(),
        destinations: latLngList().required(),
        mode: oneOf(MODES).required(),
        units: oneOf(UNITS).required(),
        avoid: commaList({ values: ['tolls', 'highways', 'ferries', 'borderCrossings'] as const }),
      },
    },
    ({ query }) => {
      const { origins, destinations, mode, units } = query;
      if (origins.length * destinations.length > MATRIX_MAX_ROUTES) {
        throw invalidParam(
          'destinations',
          `must make at most ${MATRIX_MAX_ROUTES} routes with origins (${origins.length} × ${destinations.length} asked).`,
        );
      }
      const routes = router.matrixSync(origins, destinations, mode);
      const matrix = routes.map((row, originIndex) =>
        row.map((r, destinationIndex) => ({
          distance: formatDistance(r.distanceMeters, units),
          duration: formatDuration(r.durationSeconds),
          originIndex,
          destinationIndex,
        })),
      );
      const point = (p: Position) => ({ latitude: p[1], longitude: p[0] });
      return { origins: origins.map(point), destinations: destinations.map(point), matrix };
    },
  );
}

function presentRoute(r: DetailedRoute, units: Units, geometry: Geometry | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    distance: formatDistance(r.distanceMeters, units),
    duration: formatDuration(r.durationSeconds),
  };
  if (geometry && r.line) {
    out.geometry =
      geometry === 'linestring'
        ? { type: 'LineString', coordinates: r.line }
        : { polyline: encodePolyline(r.line, geometry === 'polyline6' ? 6 : 5) };
  }
  return out;
}
