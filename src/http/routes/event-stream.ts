import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { EventFeed } from '../../domain/events/event-stream.js';
import { MAX_STREAMS_PER_TENANT } from '../../domain/events/event-stream.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { HttpError } from '../http-error.js';
import { commaList, str } from '../params/index.js';
import { presentEvent } from '../presenters/event-presenter.js';

/** A comment line this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const KEEPALIVE_MS = 15_000;
/** What a browser's EventSource waits before reconnecting (it then sends Last-Event-ID). */
const RETRY_MS = 2_000;

/**
 * `GET /v1/events/stream`: the project's events as Server-Sent Events, each `id: <cursor>` and
 * `data: <the event as GET /v1/events prints it>`, resumed after `Last-Event-ID` (or `lastEventId`),
 * else from now. The feed (domain/events/event-stream.ts) reads the store, so it works across API
 * processes; the socket's backpressure holds its reads. Streams end on client disconnect and when the
 * server closes.
 */
export function eventStreamRoutes(app: FastifyInstance, { services }: AppDeps): void {
  // Every connection, for a closing server to end the ones left without a request (see preClose).
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.addHook('preClose', (done) => {
    services.eventStreams.closeAll();
    // After a client had left a stream, Node's server kept counting some of its other keep-alive
    // connections as busy though no request was on them, and `close` waited the keep-alive timeout
    // (72 s) for them. Until the server has closed, connections with no response under way go.
    const sweep = setInterval(() => {
      for (const socket of connections) {
        if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroySoon();
      }
    }, 100);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/events/stream',
      auth: 'secret',
      tag: 'Events',
      summary: 'Live events as Server-Sent Events, resumable with Last-Event-ID',
      query: {
        types: commaList({ max: 50 }).describe('event types to send, comma-separated'),
        userId: str({ maxLength: 256 }).describe("the user's _id or userId"),
        lastEventId: str({ maxLength: 64 }).describe(
          'resume after this event id (when the Last-Event-ID header cannot be set)',
        ),
      },
    },
    async ({ query, tenant, req, reply }) => {
      const header = req.headers['last-event-id'];
      const resume =
        typeof header === 'string' && header.trim() !== ''
          ? { param: 'Last-Event-ID', value: header.trim() }
          : query.lastEventId !== undefined
            ? { param: 'lastEventId', value: query.lastEventId }
            : undefined;
      const feed = await services.eventStreams.follow(tenant, { types: query.types, userId: query.userId }, resume);
      if (!feed) {
        throw new HttpError(
          429,
          undefined,
          `Too many event streams: at most ${MAX_STREAMS_PER_TENANT} per project and environment are open at once.`,
          { 'retry-after': '15' },
        );
      }
      reply.raw.on('close', () => feed.close());
      reply.header('cache-control', 'no-cache, no-transform');
      reply.header('x-accel-buffering', 'no');
      // The connection goes with the stream: kept alive, a closing server's `close` waited for it to be
      // idle for the keep-alive timeout (72 s) after the stream ended.
      reply.header('connection', 'close');
      return new JsonText(Readable.from(messages(feed), { highWaterMark: 1 }), 'text/event-stream; charset=utf-8');
    },
  );
}

/** The stream's text: a first comment (the stream is open), then events, and keepalives while quiet. */
async function* messages(feed: EventFeed): AsyncGenerator<string> {
  yield `retry: ${RETRY_MS}\n: connected\n\n`;
  let lastWrite = Date.now();
  try {
    for await (const item of feed.events) {
      if (item) {
        yield `id: ${item.cursor}\ndata: ${JSON.stringify(presentEvent(item.event))}\n\n`;
        lastWrite = Date.now();
      } else if (Date.now() - lastWrite >= KEEPALIVE_MS) {
        yield ': keepalive\n\n';
        lastWrite = Date.now();
      }
    }
  } finally {
    feed.close();
  }
}
