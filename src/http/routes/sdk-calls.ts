import type { FastifyInstance } from 'fastify';
import type { RawLogLine } from '../../domain/device-logs/device-log-service.js';
import { invalid } from '../../domain/errors.js';
import { placeSnapshot } from '../../domain/places/place.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { jsonValue, num, str, toEpochMs } from '../params/index.js';
import { presentBeacon } from '../presenters/beacon-presenter.js';
import { presentGeofence } from '../presenters/geofence-presenter.js';

/** The region `sync/region` answers for: this far around the device, or less where fences are dense. */
const SYNC_RADIUS_METERS = 5000;
/** Geofences and beacons one sync hands the device (iOS monitors at most 20 regions at once anyway). */
const SYNC_LIMIT = 100;

const identifier = () => str({ maxLength: 256 });

/**
 * The SDKs' housekeeping calls: the autocomplete plugin's click report, the mobile SDKs' debug logs,
 * and iOS's region sync (the geofences and beacons around the device, for offline detection).
 */
export function sdkCallRoutes(app: FastifyInstance, { services, clock }: AppDeps): void {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/search/autocomplete/click',
      auth: 'publishable',
      tag: 'Search',
      summary: 'Report which autocomplete result was picked (counted with the usage, per endpoint)',
      body: {
        idx: num({ min: 0, max: 99, integer: true }).describe('the picked result, from 0').required(),
        sessionToken: identifier(),
        requestId: identifier().describe('x-radar-request-id of the autocomplete answer'),
      },
    },
    // Nothing is kept beyond the usage count the auth plugin makes: the request is the click. Radar
    // answers 204; radar-sdk-js takes any 2xx and ignores the body, and every answer here is JSON.
    () => ({}),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/logs',
      auth: 'publishable',
      tag: 'SDK',
      summary: "The mobile SDKs' debug logs: kept per device, the newest 1,000 lines (CLI: projects logs)",
      body: {
        logs: jsonValue({ type: 'array', items: { type: 'object' } }).required(),
        deviceId: identifier(),
        installId: identifier(),
        sessionId: identifier(),
        id: identifier(),
      },
    },
    async ({ body, tenant }) => {
      if (!Array.isArray(body.logs))
        throw invalid('logs', 'logs must be an array of {level, type, message, createdAt}.');
      const lines = body.logs.map((l: unknown, i): RawLogLine => {
        if (!l || typeof l !== 'object' || Array.isArray(l)) throw invalid('logs', `logs[${i}] must be an object.`);
        const line = l as Record<string, unknown>;
        const createdAt = line.createdAt === undefined || line.createdAt === null ? null : toEpochMs(line.createdAt);
        if (createdAt === null && line.createdAt !== undefined && line.createdAt !== null)
          throw invalid('logs', `logs[${i}].createdAt must be an ISO 8601 datetime.`);
        return { level: line.level, type: line.type, message: line.message, createdAt: createdAt ?? undefined };
      });
      const kept = await services.deviceLogs.append(
        tenant,
        { deviceId: body.deviceId, installId: body.installId, sessionId: body.sessionId },
        lines,
      );
      return { kept };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/sync/region',
      auth: 'publishable',
      tag: 'SDK',
      summary: 'The geofences, places and beacons around the device (iOS region sync), and the region they cover',
      body: {
        latitude: num({ min: -90, max: 90 }).required(),
        longitude: num({ min: -180, max: 180 }).required(),
        userId: identifier(),
      },
    },
    async ({ body, tenant, req }) => {
      const near: [number, number] = [body.longitude, body.latitude];
      const fences = await services.geofenceSearch.near(tenant, {
        near,
        radiusMeters: SYNC_RADIUS_METERS,
        limit: SYNC_LIMIT,
      });
      // Places only for a project with the Places feature, as track sets user.place only for those;
      // through the project's place filters, so the device is handed the places it would be evented for.
      const places = req.auth!.project.features.places
        ? services.places.near(await services.settings.get(tenant), near, SYNC_RADIUS_METERS, SYNC_LIMIT)
        : [];
      // A full list covers only out to its farthest entry: the device syncs again once it leaves that.
      let radius = SYNC_RADIUS_METERS;
      if (fences.length === SYNC_LIMIT) radius = Math.min(radius, fences[fences.length - 1]!.distanceMeters);
      if (places.length === SYNC_LIMIT) radius = Math.min(radius, places[places.length - 1]!.distance);
      radius = Math.max(100, radius);
      const beacons = await services.beacons.near(tenant, near, radius, SYNC_LIMIT);
      const now = clock.now();
      return {
        geofences: fences.map((h) => presentGeofence(h.geofence, now)),
        places: places.map((h) => placeSnapshot(h.place)),
        beacons: beacons.map(presentBeacon),
        region: { latitude: body.latitude, longitude: body.longitude, radius },
      };
    },
  );
}
