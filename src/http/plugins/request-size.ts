import http from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { invalidParam } from '../../domain/errors.js';
import { HttpError } from '../http-error.js';
import { EXPOSED_HEADERS } from './cors.js';
import { errorBody } from './errors.js';

/**
 * Longest request target (path and query) taken, in characters. The longest a client sends is a
 * 25-cell matrix or a search with 16 metadata filters, well under 2 KB; 8 KB is what most proxies
 * allow. Node's parser itself stops at 16 KB for the request line and headers together
 * (`--max-http-header-size`), and that is answered by `answerClientError`.
 */
export const MAX_URL_LENGTH = 8192;

/** Most query keys taken: 16 metadata filters and every parameter of the widest route fit many times over. */
export const MAX_QUERY_KEYS = 100;

/** Refuses over-long URLs (414) and queries of too many keys (400) before any route runs. */
export function registerRequestSize(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.url.length > MAX_URL_LENGTH) {
      return done(new HttpError(414, 'url', `url must be at most ${MAX_URL_LENGTH} characters long.`));
    }
    // Counted without `Object.keys`: every request runs this, and an array per request adds up.
    let keys = 0;
    for (const _ in req.query as object) {
      if (++keys > MAX_QUERY_KEYS) return done(invalidParam('query', `must have at most ${MAX_QUERY_KEYS} keys.`));
    }
    done();
  });
}

/**
 * Fastify's `clientErrorHandler`: requests Node's parser refuses before Fastify sees them. Fastify's
 * own answer (a 431 for headers over 16 KB) had another body shape and no CORS headers, so a browser
 * saw a network error. The request line tells a long URL (414) from long headers (431). No request
 * exists yet, so the origin is not known: `*` stands for it.
 */
export function answerClientError(this: FastifyInstance, err: ConnectionError, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let param: string | undefined;
  let message = 'The request could not be read as HTTP.';
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'The request took too long to arrive.';
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    // A Buffer, as Node gives it (Fastify's type describes its JSON form).
    const packet: unknown = err.rawPacket;
    const line = requestLineLength(Buffer.isBuffer(packet) ? packet : undefined);
    if (line > MAX_URL_LENGTH) {
      status = 414;
      param = 'url';
      message = `url must be at most ${MAX_URL_LENGTH} characters long.`;
    } else {
      status = 431;
      param = 'headers';
      message = `headers must be at most ${http.maxHeaderSize} bytes together with the URL.`;
    }
  }
  this.log.debug({ err }, 'client error');
  if (!socket.writable) return void socket.destroy(err);
  const body = JSON.stringify(errorBody(status, param, message));
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'access-control-allow-origin: *\r\n' +
      `access-control-expose-headers: ${EXPOSED_HEADERS}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}

/** Bytes before the first line break of what arrived (all of it when there is none). */
function requestLineLength(packet: Buffer | undefined): number {
  if (!packet) return 0;
  const end = packet.indexOf(10);
  return end < 0 ? packet.length : end;
}
