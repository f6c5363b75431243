import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../../domain/errors.js';
import { HttpError } from '../http-error.js';
import { UNSUPPORTED_CONTENT_TYPE } from './body-parsers.js';
import { applyCommonHeaders } from './cors.js';

/** The status of each kind of domain refusal: the one place where the domain's errors meet HTTP. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  unavailable: 503,
  // The project's jurisdiction lists refuse the location (docs/jurisdiction.md).
  legal: 451,
};

/** Fastify's own failures that are the client's doing, mapped to the spec's error body. */
const CLIENT_ERRORS: Record<string, { status: number; param: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, param: 'body', message: 'body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, param: 'content-type', message: UNSUPPORTED_CONTENT_TYPE },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    param: 'body',
    message: 'body length does not match Content-Length.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, param: 'body', message: 'body must not be empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, param: 'body', message: 'body must be valid JSON.' },
};

// Node's socket errors, PostgreSQL's connection-exception class (08) and shutdown codes (57P0x), and
// SQLite's lock waits that outlasted busy_timeout: the request was fine, the store was not there.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'SQLITE_BUSY']);

/** Whether an error says the store cannot be reached now (ARCHITECTURE.md §5: 503), not that we failed. */
export function isStoreUnavailable(err: { code?: unknown; message?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code)) return true;
  // pg's pool gives up waiting for a connection with a plain Error.
  const message = typeof err.message === 'string' ? err.message : '';
  return /timeout exceeded when trying to connect|Connection terminated/i.test(message);
}

/** Renders every error as `{meta: {code, param, message}}`; only our own faults become 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | DomainError | HttpError, req, reply) => {
    if (err instanceof DomainError) {
      const status = DOMAIN_STATUS[err.kind];
      return reply.code(status).send(errorBody(status, err.param, err.message));
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.status).send(errorBody(err.status, err.param, err.message));
    }
    const known = err.code ? CLIENT_ERRORS[err.code] : undefined;
    if (known) return reply.code(known.status).send(errorBody(known.status, known.param, known.message));
    if (err instanceof SyntaxError || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 400;
      return reply.code(status).send(errorBody(status, 'body', `body could not be read: ${err.message}`));
    }
    if (isStoreUnavailable(err)) {
      req.log.warn({ err }, 'store unavailable');
      reply.header('retry-after', '1');
      return reply.code(503).send(errorBody(503, undefined, 'The data store is unavailable; retry shortly.'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody(500, undefined, 'Internal server error.'));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(errorBody(404, undefined, `No endpoint ${req.method} ${req.url.split('?')[0]}.`));
  });
}

/**
 * Fastify's `frameworkErrors` option: URLs the router refuses before any route or hook runs (bad
 * percent-encoding, a path segment over `maxParamLength`). Without it Fastify answers in its own body
 * shape, without CORS or request id headers.
 */
export function renderFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  applyCommonHeaders(req, reply);
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'path has a segment that is too long.'
      : err.code === 'FST_ERR_BAD_URL'
        ? 'path is not a valid URL (check its percent-encoding).'
        : 'path could not be read.';
  reply.code(400).send(errorBody(400, 'path', message));
}

export function errorBody(code: number, param: string | undefined, message: string) {
  return { meta: param ? { code, param, message } : { code, message } };
}
