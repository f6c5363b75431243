import { after, before } from 'node:test';
import { startServer, type TestServer } from './server.js';

/**
 * Registers the current suite's `before` and `after` hooks: a server started (by `startServer` with the
 * options given, or by the function given, such as `startGeodataServer`), then `seed` run on it for what
 * every test of the suite shares, and the server closed after. `suite.s` is the server once `before` has run.
 */
export function serverSuite(
  start: Parameters<typeof startServer>[0] | (() => Promise<TestServer>) = {},
  seed?: (s: TestServer) => Promise<void>,
): { readonly s: TestServer } {
  let server: TestServer | undefined;
  before(async () => {
    server = typeof start === 'function' ? await start() : await startServer(start);
    await seed?.(server);
  });
  after(() => server?.close());
  return {
    get s() {
      return server as TestServer;
    },
  };
}
