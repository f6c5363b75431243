import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.js';
import { HttpError } from '../http-error.js';
import { limitOf, OperatorMetrics } from './operator-metrics.js';

/**
 * Prometheus metrics, off unless configured (config.metrics): `GET /metrics` on the API port with
 * METRICS=on, and/or on a listener of its own at HOST:METRICS_PORT, which a firewall can keep from the
 * public. No key either way: what it shows is counts and timings, no tenant's data.
 */
export function registerMetrics(app: FastifyInstance, deps: AppDeps): void {
  const { onApiPort, port } = deps.config.metrics;
  if (!onApiPort && port === null) return;
  const metrics = new OperatorMetrics(deps);

  app.addHook('onResponse', (req, reply, done) => {
    // The route's pattern; requests no route matched share one series, whatever their URL.
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.requests.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', (_req, _reply, err, done) => {
    if (err instanceof HttpError && err.status === 429) metrics.rateLimited.inc({ limit: limitOf(err.message) });
    done();
  });

  if (onApiPort) {
    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  }
  if (port !== null) {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Metrics are at GET /metrics.\n');
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        (err: unknown) => {
          app.log.error({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected.\n');
        },
      );
    });
    // Listens once the app is ready (a port in use fails the start) and closes with it.
    app.addHook('onReady', (done) => {
      server.once('error', done);
      server.listen(port, deps.config.host, () => {
        server.off('error', done);
        app.log.info({ port, host: deps.config.host }, 'metrics listening');
        done();
      });
    });
    app.addHook('onClose', (_app, done) => {
      if (!server.listening) return done();
      server.close(() => done());
      server.closeAllConnections();
    });
  }
}
