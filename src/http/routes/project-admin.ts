import type { FastifyInstance } from 'fastify';
import { invalidParam } from '../../domain/errors.js';
import { monthOf } from '../../domain/projects/usage-meter.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { listLimit } from '../params/common.js';
import { str } from '../params/index.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * What the CLI's `projects webhooks|deliveries|usage` print, for a secret key of the project: its
 * environment's webhooks (secrets shown by their last four characters), their delivery log, and the
 * month's requests per endpoint. Read only; webhooks are still added and removed with the CLI.
 */
export function projectAdminRoutes(app: FastifyInstance, { store, usage, clock }: AppDeps): void {
  const tag = 'Settings';
  defineRoute(
    app,
    { method: 'GET', url: '/v1/webhooks', auth: 'secret', tag, summary: "The environment's webhooks" },
    async ({ tenant, req }) => ({
      webhooks: (req.auth!.project.webhooks ?? [])
        .filter((w) => w.live === tenant.live)
        .map((w) => ({
          _id: w.id,
          url: w.url,
          types: w.types,
          mode: w.mode ?? 'single',
          enabled: w.enabled,
          secret: `…${w.secret.slice(-4)}`,
          createdAt: iso(w.createdAt),
        })),
    }),
  );
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/webhooks/deliveries',
      auth: 'secret',
      tag,
      summary: 'The newest deliveries to webhooks and destinations',
      query: { webhookId: str({ maxLength: 64 }), limit: listLimit() },
    },
    async ({ query, tenant, req }) => {
      const project = req.auth!.project;
      const webhooks = new Set((project.webhooks ?? []).filter((w) => w.live === tenant.live).map((w) => w.id));
      const destinations = new Set((project.destinations ?? []).map((d) => d.id));
      if (query.webhookId !== undefined && !webhooks.has(query.webhookId) && !destinations.has(query.webhookId))
        throw invalidParam('webhookId', "must name one of the environment's webhooks or destinations.");
      const rows = await store.deliveries.list(tenant, {
        limit: query.limit,
        ...(query.webhookId === undefined ? {} : { webhookId: query.webhookId }),
      });
      return {
        deliveries: rows.map((d) => ({
          _id: d.id,
          // Webhooks and destinations share the outbox and one id space.
          target: destinations.has(d.webhookId) ? 'destination' : 'webhook',
          webhookId: d.webhookId,
          eventId: d.eventId,
          status: d.status,
          attempts: d.attempts,
          lastStatus: d.lastStatus,
          lastError: d.lastError,
          nextAttemptAt: iso(d.nextAttemptAt),
          createdAt: iso(d.createdAt),
          updatedAt: iso(d.updatedAt),
        })),
      };
    },
  );
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/usage',
      auth: 'secret',
      tag,
      summary: "The month's requests per endpoint",
      query: {
        month: str({ maxLength: 7, pattern: /^\d{4}-(0[1-9]|1[0-2])$/, patternRule: 'must be a month, YYYY-MM.' }),
      },
    },
    async ({ query, tenant }) => {
      const month = query.month ?? monthOf(clock.now());
      const rows = await usage.monthTable(tenant.projectId, month);
      const endpoints = rows
        .filter((r) => r.live === tenant.live)
        .map((r) => ({ endpoint: r.endpoint, count: r.count }))
        .sort((a, b) => b.count - a.count || a.endpoint.localeCompare(b.endpoint));
      return { month, total: endpoints.reduce((n, r) => n + r.count, 0), endpoints };
    },
  );
}
