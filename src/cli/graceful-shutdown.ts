import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';

/** After the grace period, this much longer for the store and the rest to close before giving up. */
const CLOSE_AFTER_GRACE_MS = 5_000;

/**
 * SIGTERM (and SIGINT) stop the server without losing an acknowledged request: `close` (compose's)
 * stops accepting connections, lets the requests in flight finish, flushes the usage counters and
 * closes the store; the process then exits 0. Requests still running after `graceMs` have their
 * connections cut (their clients never got an answer, so nothing they were told is lost), and if closing
 * still does not finish the process exits 1. A second signal exits at once with 1: an operator pressing
 * Ctrl-C twice means it.
 *
 * Installed before the server listens, so that a signal arriving just after "listening" is not left to
 * Node's default (death without closing anything).
 */
export function stopOnSignals(app: FastifyInstance, close: () => Promise<void>, graceMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal, graceMs }, 'shutting down: finishing requests in flight');
    const cut = setTimeout(() => {
      app.log.warn('requests still in flight after the grace period: closing their connections');
      app.server.closeAllConnections();
      setTimeout(() => {
        app.log.error('shutdown did not finish in time: exiting');
        process.exit(1);
      }, CLOSE_AFTER_GRACE_MS).unref();
    }, graceMs);
    cut.unref();
    close().then(
      () => {
        app.log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  // Ctrl-C reaches every process of the terminal's group: a WORKERS process leaves it to the primary,
  // which sends it SIGTERM (worker-cluster.ts), rather than take the two for "twice".
  process.on('SIGINT', cluster.isWorker ? () => {} : stop);
}
