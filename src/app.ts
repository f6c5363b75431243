import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { AppDeps } from './http/context.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerCors } from './http/plugins/cors.js';
import { registerErrorHandling, renderFrameworkError } from './http/plugins/errors.js';
import { registerRequestLog, requestIdGenerator, requestLoggerFactory } from './http/plugins/request-log.js';
import { beaconRoutes } from './http/routes/beacons.js';
import { contextRoutes } from './http/routes/context.js';
import { eventRoutes } from './http/routes/events.js';
import { geocodingRoutes } from './http/routes/geocoding.js';
import { geofenceRoutes } from './http/routes/geofences.js';
import { routeRoutes } from './http/routes/route.js';
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
  });
  registerRequestLog(app);
  // Parameters are parsed leniently by each route (see http/params); schemas only document the API.
  app.setValidatorCompiler(() => () => true);
  // Request id and CORS headers (one hook: every request runs it).
  registerCors(app);
  registerErrorHandling(app);
  registerBodyParsers(app);
  registerAuth(app, deps);

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
  beaconRoutes(app, deps);
  settingsRoutes(app, deps);
  trackRoutes(app, deps);
  eventRoutes(app, deps);
  contextRoutes(app, deps);
  searchRoutes(app, deps);
  searchPlacesRoutes(app, deps);
  searchBeaconRoutes(app, deps);
  tripRoutes(app, deps);
  geocodingRoutes(app, deps);
  routeRoutes(app, deps);
  return app;
}

/** JSON (an empty body reads as `{}`, as clients send a JSON content type with no body) and forms. */
function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = Object.assign(new Error('body must be valid JSON.'), {
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        statusCode: 400,
      });
      done(err, undefined);
    }
  });
  app.register(formbody);
}
