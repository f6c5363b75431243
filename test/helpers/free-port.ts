import net from 'node:net';

/**
 * A free loopback port for a process that binds it seconds later (a broker booting, a server's second listener). It is drawn from
 * below Linux's ephemeral range (32768 and up), which the kernel hands to every `listen(0)` and every
 * outgoing connection of the other test files: a port from there could be taken again before the
 * broker binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
}
