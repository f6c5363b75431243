import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Tenant } from '../domain/tenant.js';
import { type AuthLevel, tenantOf } from './context.js';
import { listAnswerBody } from './json-list-body.js';
import { type ParamSpec, type Parsed, paramsParser } from './params/index.js';
import { rejectIllFormedText } from './params/well-formed-text.js';

interface RouteDef<Q extends ParamSpec, B extends ParamSpec, P extends ParamSpec> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  auth: AuthLevel;
  tag: string;
  summary: string;
  query?: Q;
  body?: B;
  params?: P;
  /** Read body parameters from the query string too (the spec lets PATCH trip take `status` either way). */
  bodyFromQuery?: boolean;
  perKeyLimit?: boolean;
  /** Runs as the answer is sent, whatever it is (e.g. to give back what a refused request took). */
  onSend?: onSendHookHandler;
}

export interface RouteInput<Q extends ParamSpec, B extends ParamSpec, P extends ParamSpec> {
  query: Parsed<Q>;
  body: Parsed<B>;
  params: Parsed<P>;
  tenant: Tenant;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Declares one endpoint: its parameters (parsed leniently, documented in OpenAPI), the key it needs,
 * and a handler that returns the response fields; `meta: {code: 200}` is added here. A handler that
 * returns `meta` extends it (e.g. `hasMore`).
 */
/** No parameters of that kind. */
type NoParams = Record<never, never>;

/**
 * A whole response body already serialised as JSON (meta included), sent as it is: for hot reads that
 * keep the text of a document, or its bytes (see `JsonCache`), or a long list printed a chunk at a time
 * (`jsonListBody`).
 */
export class JsonText {
  constructor(
    readonly text: string | Buffer | Readable,
    /** Another type for a body that is not JSON (an export's CSV). */
    readonly contentType = 'application/json; charset=utf-8',
  ) {}
}

export function defineRoute<
  Q extends ParamSpec = NoParams,
  B extends ParamSpec = NoParams,
  P extends ParamSpec = NoParams,
>(
  app: FastifyInstance,
  def: RouteDef<Q, B, P>,
  handler: (
    input: RouteInput<Q, B, P>,
  ) => Promise<Record<string, unknown> | JsonText> | Record<string, unknown> | JsonText,
): void {
  const parsePath = paramsParser(def.params ?? ({} as P));
  const parseQuery = paramsParser(def.query ?? ({} as Q));
  const parseBody = paramsParser(def.body ?? ({} as B));
  app.route({
    method: def.method,
    url: def.url,
    config: { auth: def.auth, perKeyLimit: def.perKeyLimit ?? true },
    ...(def.onSend ? { onSend: def.onSend } : {}),
    schema: {
      tags: [def.tag],
      summary: def.summary,
      ...(def.auth !== 'none' ? { security: [{ apiKey: [] }] } : {}),
      ...(def.query ? { querystring: toJsonSchema(def.query) } : {}),
      ...(def.body ? { body: toJsonSchema(def.body) } : {}),
      ...(def.params ? { params: toJsonSchema(def.params) } : {}),
    },
    // Not async: a handler that answers at once (a cached read) then costs no promise.
    handler: (req, reply) => {
      // A large body (settings at their limits, a 10,000-position outline, a replay) took tens of
      // milliseconds to read and parse: checking it is left to the next turn of the event loop.
      if (Number(req.headers['content-length']) > LARGE_BODY_BYTES) return nextTurn().then(() => handle(req, reply));
      return handle(req, reply);
    },
  });
  function handle(req: FastifyRequest, reply: FastifyReply): unknown {
    rejectIllFormedText(req.params);
    rejectIllFormedText(req.query);
    rejectIllFormedText(req.body);
    const params = parsePath(req.params);
    const query = parseQuery(req.query);
    const bodySource = def.bodyFromQuery ? { ...(req.query as object), ...(req.body as object) } : req.body;
    const body = parseBody(bodySource);
    const tenant = def.auth === 'none' ? { projectId: '', live: false } : tenantOf(req.auth);
    const out = handler({ query, body, params, tenant, req, reply });
    return out instanceof Promise ? out.then((o) => respond(reply, o)) : respond(reply, out);
  }
}

/** Bodies above this are checked a turn of the event loop after they are parsed (see `defineRoute`). */
const LARGE_BODY_BYTES = 256 * 1024;

function respond(reply: FastifyReply, out: Record<string, unknown> | JsonText): unknown {
  if (out instanceof JsonText) {
    reply.type(out.contentType);
    return out.text;
  }
  const { meta, ...rest } = out as { meta?: Record<string, unknown> };
  const answer = { meta: { code: 200, ...meta }, ...rest };
  // A long list is printed in chunks between which other requests are served (json-list-body.ts).
  const body = listAnswerBody(answer);
  if (body === undefined) return answer;
  reply.type('application/json; charset=utf-8');
  return body;
}

function toJsonSchema(spec: ParamSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(spec)) {
    properties[name] = p.schema;
    if (p.isRequired && p.defaultValue === undefined) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
