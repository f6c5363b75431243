import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { createdPage, createdPageParams, pathSegment } from '../params/common.js';
import { commaList, str } from '../params/index.js';
import { presentEvent } from '../presenters/event-presenter.js';
import { conversionRoutes } from './conversions.js';
import { eventStreamRoutes } from './event-stream.js';

/**
 * Stored events (beyond the spec: every user of such a service needs to read what happened), and the
 * SDKs' own event calls: conversions and verification (`conversions.ts`).
 */
export function eventRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { services } = deps;
  conversionRoutes(app, deps);
  eventStreamRoutes(app, deps);
  const tag = 'Events';
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/events',
      auth: 'secret',
      tag,
      summary: 'List events, newest first',
      query: {
        ...createdPageParams(),
        type: commaList({ max: 50 }).describe('event types, comma-separated'),
        userId: str({ maxLength: 256 }).describe("the user's _id or userId"),
      },
    },
    async ({ query, tenant }) => {
      const page = await services.events.list(tenant, {
        ...createdPage(query),
        types: query.type,
        userId: query.userId,
      });
      return { meta: { hasMore: page.hasMore }, events: page.items.map(presentEvent) };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/events/:id',
      auth: 'secret',
      tag,
      summary: 'Get an event',
      params: { id: pathSegment() },
    },
    async ({ params, tenant }) => ({ event: presentEvent(await services.events.get(tenant, params.id)) }),
  );
}
