import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.js';
import { errorBody } from '../plugins/errors.js';

/** Health and readiness. (`GET /v1/config`, which the SDKs call, is in sdk.ts.) */
export function systemRoutes(app: FastifyInstance, { store, rateLimiter }: AppDeps): void {
  app.get('/healthz', { schema: { tags: ['System'], summary: 'The process is up' } }, async () => ({
    meta: { code: 200 },
    status: 'ok',
  }));

  app.get('/readyz', { schema: { tags: ['System'], summary: 'The store answers' } }, async (_req, reply) => {
    try {
      await store.ping();
    } catch (err) {
      return reply
        .code(503)
        .send({ ...errorBody(503, undefined, `store is unreachable: ${(err as Error).message}`), status: 'unready' });
    }
    try {
      // Redis, when REDIS_URL is set: without it every rate-limited request is refused.
      await rateLimiter.ping();
    } catch (err) {
      return reply.code(503).send({
        ...errorBody(503, undefined, `rate limiter is unreachable: ${(err as Error).message}`),
        status: 'unready',
      });
    }
    return { meta: { code: 200 }, status: 'ready', store: store.engine };
  });
}
