import querystring from 'node:querystring';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.js';
import { formTooLarge, jsonTooLarge } from './json-shape.js';

/** Every body that is neither JSON nor a form: named so the error handler and tests read the same. */
export const UNSUPPORTED_CONTENT_TYPE =
  'content-type must be application/json or application/x-www-form-urlencoded for a request with a body.';

/**
 * The bodies routes read: JSON (an empty body reads as `{}`, as clients send a JSON content type with
 * no body; `application/*+json` too) and forms. Any other body is refused with 415 before a route
 * runs. Fastify's own text/plain parser went: with it a route got the text as a string, read no field
 * from it, and answered 200 having done nothing (a `fetch` of a JSON string sends `text/plain`).
 * An empty body of any type is no body and goes through, so a PATCH carrying its fields in the query
 * is not refused for the type a client put on nothing.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = (_req: unknown, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
    // Counted before parsing: what parsing costs is the arrays and objects it makes, not the bytes.
    const tooLarge = jsonTooLarge(body);
    if (tooLarge) return done(new HttpError(413, 'body', tooLarge), undefined);
    const text = body.toString('utf8');
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
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.-]+\+json$/, { parseAs: 'buffer' }, parseJson);
  // Any other type: refused unread unless it is empty (a stream handler, so nothing is buffered first).
  app.addContentTypeParser('*', (req, _payload, done) => {
    const empty = req.headers['content-length'] === '0' && req.headers['transfer-encoding'] === undefined;
    if (empty) return done(null, undefined);
    done(new HttpError(415, 'content-type', UNSUPPORTED_CONTENT_TYPE), undefined);
  });
  app.register(formbody, {
    parser: (text: string) => {
      const tooLarge = formTooLarge(text);
      if (tooLarge) throw new HttpError(413, 'body', tooLarge);
      return querystring.parse(text);
    },
  });
}
