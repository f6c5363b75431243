import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';

const COUNTER_SPAN = 2 ** 48;

/**
 * Request ids shaped like UUIDs: a random prefix per process and a 48-bit counter in the last group.
 * Unique across processes and restarts like a random UUID, without drawing and formatting 16 random
 * bytes on every request (a request id names a request in logs; it guards nothing).
 */
export function requestIdGenerator(): () => string {
  let prefix = randomUUID().slice(0, 24);
  let n = 0;
  return () => {
    if (++n === COUNTER_SPAN) {
      prefix = randomUUID().slice(0, 24);
      n = 1;
    }
    return prefix + n.toString(16).padStart(12, '0');
  };
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** Fastify's logger as pino makes it (Fastify's own type leaves `isLevelEnabled` out). */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * The per-request logger: pino's child (with the request id bound) is made on the first line the
 * request logs at an enabled level. Below `info` (bench and busy deployments run at `warn`) most
 * requests log nothing, and making a child serialises its bindings: a cost on every request.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    readonly parent: ParentLogger,
    readonly bindings: Record<string, unknown>,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }

  #log(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.#logger()[level] as (...a: unknown[]) => void)(...args);
  }

  isLevelEnabled(level: string): boolean {
    return ((this.#child ?? this.parent) as ParentLogger).isLevelEnabled(level);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, opts?: Record<string, unknown>): FastifyBaseLogger {
    return this.#logger().child(bindings, opts);
  }
}

/**
 * Fastify's `childLoggerFactory`: a `RequestLogger`, unless the route sets its own log level or
 * serialisers (none does today), which pino must apply when the child is made, or the logger is not pino.
 */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  opts,
) => {
  const parent = logger as ParentLogger;
  if (opts.level !== undefined || opts.serializers !== undefined || typeof parent.isLevelEnabled !== 'function') {
    return logger.child(bindings, opts);
  }
  return new RequestLogger(parent, bindings) as unknown as FastifyBaseLogger;
};

/**
 * One line per request at `info` ("request completed": method, url, status, milliseconds), with the
 * request id, in place of Fastify's two (`disableRequestLogging` in app.ts): each line is a JSON
 * serialisation and a write, on every request. Nothing is registered below `info`.
 */
export function registerRequestLog(app: FastifyInstance): void {
  if ((app.log as ParentLogger).isLevelEnabled?.('info') === false) return;
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      { method: req.method, url: req.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });
}
