import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { keyFromAuthorization } from '../../domain/projects/keys.js';
import type { AppDeps } from '../context.js';

/**
 * Resolves the key of every route that asks for one (`config.auth`), refuses wrong levels and
 * disabled or over-quota projects, then applies the per-key rate limit and counts usage.
 * Track sets its own per-device limit instead (`config.perKeyLimit: false`).
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req, reply) => {
    const level = req.routeOptions.config.auth ?? 'none';
    if (level === 'none' || req.method === 'OPTIONS') return;
    const raw = keyFromAuthorization(req.headers.authorization);
    if (!raw) throw new ApiError(401, 'Authorization', 'Authorization header is missing: send a project API key.');
    const auth = await deps.keys.resolve(raw);
    if (!auth) throw new ApiError(401, 'Authorization', 'Authorization key is not valid.');
    if (level === 'secret' && auth.level !== 'secret') {
      throw new ApiError(403, 'Authorization', 'Authorization key must be a secret key for this endpoint.');
    }
    const { project } = auth;
    if (project.disabled) throw new ApiError(402, 'Authorization', 'Authorization key belongs to a disabled project.');
    const now = deps.clock.now();
    if (
      project.limits.monthlyQuota !== null &&
      (await deps.usage.monthTotal(project.id, now)) >= project.limits.monthlyQuota
    ) {
      throw new ApiError(
        402,
        'Authorization',
        `Authorization key's project has used its ${project.limits.monthlyQuota} requests this month.`,
      );
    }
    req.auth = auth;
    if (req.routeOptions.config.perKeyLimit !== false) {
      const rule = {
        windowMs: 1000,
        max: project.limits.requestsPerSecond,
        label: `${project.limits.requestsPerSecond} requests per second per key`,
      };
      const decision = await deps.rateLimiter.consume(`key:${auth.keyHash}`, [rule], now);
      applyRateHeaders(reply, decision);
      if (!decision.allowed) throw rateLimited(decision);
    }
    deps.usage.count(project.id, auth.live, `${req.method} ${req.routeOptions.url}`, now);
  });
}

import type { FastifyReply } from 'fastify';
import type { RateDecision } from '../../ratelimit/rate-limiter.js';

export function applyRateHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('ratelimit-limit', d.rule.max);
  reply.header('ratelimit-remaining', d.remaining);
  reply.header('ratelimit-reset', Math.ceil(d.resetMs / 1000));
}

export function rateLimited(d: RateDecision): ApiError {
  return new ApiError(
    429,
    undefined,
    `Rate limit exceeded: ${d.rule.label}. Retry after ${Math.ceil(d.resetMs / 1000)} s.`,
    {
      'retry-after': String(Math.max(1, Math.ceil(d.resetMs / 1000))),
    },
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    perKeyLimit?: boolean;
  }
}
