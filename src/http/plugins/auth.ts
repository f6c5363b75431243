import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { isRestricted, requestAllowed } from '../../domain/projects/key-restrictions.js';
import { keyFromAuthorization } from '../../domain/projects/keys.js';
import type { ResolvedKey } from '../../domain/projects/project.js';
import type { SdkSettings } from '../../domain/sdk/sdk-settings.js';
import type { RateDecision, RateRule } from '../../ratelimit/rate-limiter.js';
import { type AppDeps, type AuthLevel, tenantOf } from '../context.js';
import { HttpError } from '../http-error.js';

/**
 * Resolves the key of every route that asks for one (`config.auth`), refuses wrong levels and
 * disabled or over-quota projects, then applies the per-key rate limit. Track sets its own per-device
 * limit instead (`config.perKeyLimit: false`).
 *
 * The per-key limit counts every request it lets through, refused later or not, so a flood of bad
 * requests meets 429. Usage (and so the monthly quota) counts only the requests answered below 400,
 * when the answer is sent: a request refused for what it carries costs the project nothing.
 *
 * Each such route gets its own hook, built when the route is declared, so a request neither reads
 * the route's options nor builds its usage label. The hook stays synchronous while the key is cached,
 * the project has no monthly quota and the limiter answers in memory: every endpoint pays for it, and
 * promises are a good part of a request this cheap.
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const level = route.config?.auth ?? 'none';
    if (level === 'none') return;
    const method = typeof route.method === 'string' ? route.method : undefined;
    const auth: RouteAuth = {
      level,
      perKeyLimit: route.config?.perKeyLimit !== false,
      url: route.url,
      method,
      endpoint: `${method} ${route.url}`,
    };
    // Before the route's own hooks, as when this was a global hook. New arrays: Fastify copies the
    // options of a GET route for its HEAD twin, which gets hooks of its own.
    route.onRequest = [keyCheck(deps, auth), ...(route.onRequest === undefined ? [] : [route.onRequest].flat())];
    route.onSend = [usageCount(deps, auth), ...(route.onSend === undefined ? [] : [route.onSend].flat())];
  });
}

interface RouteAuth {
  level: Exclude<AuthLevel, 'none'>;
  perKeyLimit: boolean;
  url: string;
  /** The route's method when it has only one. */
  method: string | undefined;
  /** `METHOD url` as usage counts it, for that method. */
  endpoint: string;
}

/** What the per-key limit needs of a resolved key, built once per key (a key resolves to one object while cached). */
interface KeyLimit {
  bucket: string;
  rules: readonly RateRule[];
}

function keyCheck(deps: AppDeps, route: RouteAuth): onRequestHookHandler {
  const limits = new WeakMap<ResolvedKey, KeyLimit>();
  const limitOf = (auth: ResolvedKey): KeyLimit => {
    let limit = limits.get(auth);
    if (!limit) {
      const max = auth.project.limits.requestsPerSecond;
      limit = {
        bucket: `key:${auth.keyHash}`,
        rules: [{ windowMs: 1000, max, label: `${max} requests per second per key` }],
      };
      limits.set(auth, limit);
    }
    return limit;
  };

  /** Everything after the key and quota checks; synchronous when the limiter is. */
  const admit = (req: FastifyRequest, reply: FastifyReply, auth: ResolvedKey, now: number): void | Promise<void> => {
    req.auth = auth;
    const restricted = checkRestrictions(deps, req, auth);
    if (restricted) return restricted.then(() => limitKey(req, reply, auth, now));
    return limitKey(req, reply, auth, now);
  };

  const limitKey = (
    _req: FastifyRequest,
    reply: FastifyReply,
    auth: ResolvedKey,
    now: number,
  ): void | Promise<void> => {
    if (!route.perKeyLimit) return;
    const limit = limitOf(auth);
    const decision = deps.rateLimiter.consume(limit.bucket, limit.rules, now);
    if (decision instanceof Promise) return decision.then((d) => limited(reply, d));
    limited(reply, decision);
  };

  const slow = async (req: FastifyRequest, reply: FastifyReply, raw: string): Promise<void> => {
    const auth = await deps.keys.resolve(raw);
    if (!auth) throw new HttpError(401, 'Authorization', 'Authorization key is not valid.');
    const now = checkKey(auth);
    const quota = auth.project.limits.monthlyQuota;
    if (quota !== null && (await deps.usage.monthTotal(auth.project.id, now)) >= quota) throw overQuota(quota);
    await admit(req, reply, auth, now);
  };

  /** Refuses a key of the wrong level or a disabled project; returns the time the request counts at. */
  function checkKey(auth: ResolvedKey): number {
    if (route.level === 'secret' && auth.level !== 'secret') {
      throw new HttpError(403, 'Authorization', 'Authorization key must be a secret key for this endpoint.');
    }
    if (auth.project.disabled) {
      throw new HttpError(402, 'Authorization', 'Authorization key belongs to a disabled project.');
    }
    return deps.clock.now();
  }

  return (req, reply, done) => {
    if (req.method === 'OPTIONS') return done();
    // Most clients send the bare key: when it is cached, the header is a key and needs no reading.
    let raw = req.headers.authorization ?? '';
    let auth = deps.keys.cached(raw);
    if (auth === undefined) {
      raw = keyFromAuthorization(raw) ?? '';
      if (raw === '')
        throw new HttpError(401, 'Authorization', 'Authorization header is missing: send a project API key.');
      auth = deps.keys.cached(raw);
    }
    if (auth === undefined || auth.project.limits.monthlyQuota !== null) {
      slow(req, reply, raw).then(() => done(), done);
      return;
    }
    const pending = admit(req, reply, auth, checkKey(auth));
    if (pending) pending.then(() => done(), done);
    else done();
  };
}

/**
 * A publishable key's site and app restrictions (`keyRestrictions`): a request must come from an
 * allowed web origin (`Origin`, else `Referer`) or app (`X-Radar-Mobile-Origin`), else 403 naming
 * Authorization. Synchronous while the tenant's settings are in memory; secret keys pass.
 */
function checkRestrictions(deps: AppDeps, req: FastifyRequest, auth: ResolvedKey): Promise<void> | undefined {
  if (auth.level !== 'publishable') return undefined;
  const tenant = tenantOf(auth);
  const kept = deps.services.sdkSettings.peek(tenant);
  if (kept === undefined) return deps.services.sdkSettings.get(tenant).then((s) => refuseUnlisted(req, s));
  refuseUnlisted(req, kept);
  return undefined;
}

function refuseUnlisted(req: FastifyRequest, settings: SdkSettings | null): void {
  const r = settings?.keyRestrictions;
  if (!isRestricted(r)) return;
  const h = req.headers;
  const origin = typeof h.origin === 'string' ? h.origin : undefined;
  const referer = typeof h.referer === 'string' ? h.referer : undefined;
  const mobile = h['x-radar-mobile-origin'];
  if (requestAllowed(r, { origin, referer, mobileOrigin: typeof mobile === 'string' ? mobile : undefined })) return;
  throw new HttpError(
    403,
    'Authorization',
    "Authorization key is restricted to other sites and apps: this request's Origin, Referer or X-Radar-Mobile-Origin is not among them.",
  );
}

/** Counts a request in its project's usage once it is answered, if it was accepted (below 400). */
function usageCount(deps: AppDeps, route: RouteAuth): onSendHookHandler {
  return (req, reply, payload, done) => {
    const auth = req.auth;
    if (auth && reply.statusCode < 400) {
      const endpoint = req.method === route.method ? route.endpoint : `${req.method} ${route.url}`;
      deps.usage.count(auth.project.id, auth.live, endpoint, deps.clock.now());
    }
    done(null, payload);
  };
}

function limited(reply: FastifyReply, decision: RateDecision): void {
  applyRateHeaders(reply, decision);
  if (!decision.allowed) throw rateLimited(decision);
}

function overQuota(quota: number): HttpError {
  return new HttpError(402, 'Authorization', `Authorization key's project has used its ${quota} requests this month.`);
}

export function applyRateHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('ratelimit-limit', d.rule.max);
  reply.header('ratelimit-remaining', d.remaining);
  reply.header('ratelimit-reset', Math.ceil(d.resetMs / 1000));
}

export function rateLimited(d: RateDecision): HttpError {
  return new HttpError(
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
