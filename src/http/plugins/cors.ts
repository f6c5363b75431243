import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PreflightPolicy } from '../../domain/projects/preflight-policy.js';

/**
 * Browser clients preflight every request (the web SDK sends JSON content types and x-radar headers
 * even on GETs) and preflights carry no Authorization header, so OPTIONS is answered here, before
 * auth, on every path. `*` would not cover `authorization`, so the allowed headers are named.
 */
const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'x-request-id',
  'x-radar-device-type',
  'x-radar-sdk-version',
  'x-radar-device-make',
  'x-radar-device-model',
  'x-radar-device-os',
  'x-radar-config',
  'x-radar-mobile-origin',
  'x-radar-network-type',
  'x-radar-app-info',
  'x-radar-product',
  'x-radar-x-platform-sdk-type',
  'x-radar-x-platform-sdk-version',
];
export const EXPOSED_HEADERS =
  'x-radar-request-id, x-request-id, ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after';
const METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * The headers of every response, request id and CORS; also used where hooks do not run (malformed
 * URLs).
 */
export function applyCommonHeaders(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', req.id);
  reply.header('x-radar-request-id', req.id);
  const origin = req.headers.origin;
  reply.header('access-control-allow-origin', origin ?? '*');
  if (origin) reply.header('vary', 'Origin');
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
}

/**
 * Sets the common headers and answers preflights. Synchronous: every request runs it, and an async
 * hook costs a promise and a microtask per request.
 */
export function registerCors(app: FastifyInstance, preflight?: PreflightPolicy): void {
  app.addHook('onRequest', (req, reply, done) => {
    applyCommonHeaders(req, reply);
    if (req.method !== 'OPTIONS') return done();
    // Answered here without calling done: no later hook or handler runs.
    const origin = req.headers.origin;
    const allowed = origin && preflight ? preflight.allowed(origin) : true;
    if (allowed === true) return answerPreflight(req, reply);
    if (allowed === false) return refusePreflight(reply);
    allowed.then(
      (ok) => (ok ? answerPreflight(req, reply) : refusePreflight(reply)),
      (err) => done(err),
    );
  });
}

/**
 * A preflight from a site no project's key restrictions allow: answered without any allow header, so
 * the browser does not send the request.
 */
function refusePreflight(reply: FastifyReply): void {
  reply.removeHeader('access-control-allow-origin');
  reply.removeHeader('access-control-expose-headers');
  reply.header('vary', 'Origin').code(204).send();
}

/** A header name (RFC 9110 token): only such names are echoed back. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/;

/**
 * Allows the named headers plus whatever the page asks for (`getRequestHeaders` in radar-sdk-js adds
 * an app's own): the key, not the headers, is what protects the API. The answer varies with the
 * request's headers, so caches keep one per set.
 */
function answerPreflight(req: FastifyRequest, reply: FastifyReply): void {
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .toLowerCase()
    .split(',')
    .map((h) => h.trim())
    .filter((h) => HEADER_NAME.test(h) && !ALLOWED_HEADERS.includes(h));
  reply
    .header('vary', req.headers.origin ? 'Origin, Access-Control-Request-Headers' : 'Access-Control-Request-Headers')
    .header('access-control-allow-methods', METHODS)
    .header('access-control-allow-headers', [...ALLOWED_HEADERS, ...requested].join(', '))
    .header('access-control-max-age', '86400')
    .code(204)
    .send();
}
