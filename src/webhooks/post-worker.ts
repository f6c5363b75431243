import http from 'node:http';
import https from 'node:https';
import { parentPort } from 'node:worker_threads';
import type { OutgoingPost } from './post-thread.js';

// The thread `PostThread` starts. Kept-alive connections, up to 32 per receiver; a timeout aborts the
// request (AbortSignal), a redirect is an answer like any other.
const agents: Record<string, http.Agent> = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }),
};

function send({ id, url, body, headers, timeoutMs }: OutgoingPost & { id: number }): void {
  let done = false;
  const reply = (status: number | null, error: string | null) => {
    if (done) return;
    done = true;
    parentPort!.postMessage({ id, status, error });
  };
  try {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const options = { method: 'POST', agent: agents[target.protocol], signal: AbortSignal.timeout(timeoutMs), headers };
    const req = client.request(target, options, (res) => {
      res.resume();
      res.on('end', () => reply(res.statusCode ?? null, null));
      res.on('error', (err) => reply(null, err.message));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      reply(null, timedOut ? `no answer within ${timeoutMs} ms` : (err.code ?? err.message));
    });
    req.end(body);
  } catch (err) {
    reply(null, String((err as Error)?.message ?? err));
  }
}

parentPort?.on('message', (posts: Array<OutgoingPost & { id: number }>) => {
  for (const p of posts) send(p);
});
