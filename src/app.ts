import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { AppDeps } from './http/context.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerBodyParsers } from './http/plugins/body-parsers.js';
import { registerCors } from './http/plugins/cors.js';
import { registerErrorHandling, renderFrameworkError } from './http/plugins/errors.js';
import { registerMetrics } from './http/plugins/metrics.js';
import { registerRequestLog, requestIdGenerator, requestLoggerFactory } from './http/plugins/request-log.js';
import { answerClientError, registerRequestSize } from './http/plugins/request-size.js';
import { beaconRoutes } from './http/routes/beacons.js';
import { contextRoutes } from './http/routes/context.js';
import { dashboardRoutes } from './http/routes/dashboard.js';
import { eventRoutes } from './http/routes/events.js';
import { geocodingRoutes } from './http/routes/geocoding.js';
import { geofenceImportRoutes } from './http/routes/geofence-import.js';
import { geofenceRoutes } from './http/routes/geofences.js';
import { mapRoutes } from './http/routes/maps.js';
import { projectAdminRoutes } from './http/routes/project-admin.js';
import { routeRoutes } from './http/routes/route.js';
import { sdkRoutes } from './http/routes/sdk.js';
import { sdkCallRoutes } from './http/routes/sdk-calls.js';
import { searchRoutes } from './http/routes/search.js';
import { searchBeaconRoutes } from './http/routes/search-beacons.js';
import { searchPlacesRoutes } from './http/routes/search-places.js';
import { settingsRoutes } from './http/routes/settings.js';
import { systemRoutes } from './http/routes/system.js';
import { trackRoutes } from './http/routes/track.js';
import { tripRoutes } from './http/routes/trips.js';
import { userRoutes } from './http/routes/users.js';

/** Builds the HTTP app from its dependencies. It never listens by itself (compose/main do). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.config.logLevel },
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    genReqId: requestIdGenerator(),
    requestIdHeader: false,
    childLoggerFactory: requestLoggerFactory,
    // One line per request instead of two (registerRequestLog).
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: renderFrameworkError,
    clientErrorHandler: answerClientError,
  });
  registerRequestLog(app);
  // Parameters are parsed leniently by each route (see http/params); schemas only document the API.
  app.setValidatorCompiler(() => () => true);
  // Request id and CORS headers (one hook: every request runs it).
  registerCors(app, deps.services.preflight);
  registerRequestSize(app);
  registerErrorHandling(app);
  registerBodyParsers(app);
  registerAuth(app, deps);
  registerMetrics(app, deps);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Whereabouts location API',
        version: '1.0.0',
        description: 'Self-hosted, Radar-compatible location API.',
      },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  systemRoutes(app, deps);
  userRoutes(app, deps);
  geofenceRoutes(app, deps);
  geofenceImportRoutes(app, deps);
  beaconRoutes(app, deps);
  settingsRoutes(app, deps);
  projectAdminRoutes(app, deps);
  sdkRoutes(app, deps);
  trackRoutes(app, deps);
  eventRoutes(app, deps);
  contextRoutes(app, deps);
  searchRoutes(app, deps);
  searchPlacesRoutes(app, deps);
  searchBeaconRoutes(app, deps);
  tripRoutes(app, deps);
  geocodingRoutes(app, deps);
  routeRoutes(app, deps);
  sdkCallRoutes(app, deps);
  await mapRoutes(app, deps);
  dashboardRoutes(app);
  return app;
}
