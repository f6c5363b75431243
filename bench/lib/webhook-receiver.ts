import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver for the bench, in the bench's own process: answers 200 to every POST and counts
 * them, as a receiver that keeps up would.
 */
export async function startWebhookReceiver(): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
