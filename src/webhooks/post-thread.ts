import { Worker } from 'node:worker_threads';
import type { SendResult } from '../domain/webhooks/delivery-service.js';

/** A request the thread makes: a POST of `body` with `headers`, given up after `timeoutMs`. */
export interface OutgoingPost {
  url: string;
  body: string;
  headers: Record<string, string | number>;
  timeoutMs: number;
}

// Plain CommonJS, so the worker needs no TypeScript loader. Kept-alive connections, up to 32 per
// receiver; a timeout aborts the request (AbortSignal), a redirect is an answer like any other.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }),
};
const send = ({ id, url, body, headers, timeoutMs }) => {
  let done = false;
  const reply = (status, error) => {
    if (done) return;
    done = true;
    parentPort.postMessage({ id, status, error });
  };
  try {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: 'POST',
      agent: agents[target.protocol],
      signal: AbortSignal.timeout(timeoutMs),
      headers,
    }, (res) => {
      res.resume();
      res.on('end', () => reply(res.statusCode ?? null, null));
      res.on('error', (err) => reply(null, err.message));
    });
    req.on('error', (err) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      reply(null, timedOut ? 'no answer within ' + timeoutMs + ' ms' : (err.code || err.message));
    });
    req.end(body);
  } catch (err) {
    reply(null, String((err && err.message) || err));
  }
};
parentPort.on('message', (posts) => { for (const p of posts) send(p); });
`;

/**
 * Makes webhook posts on a thread of its own, so that their HTTP work (connection, request, response)
 * runs beside the requests the event loop serves instead of between them; the event loop only prints
 * and signs the bodies. Posts queued in one turn of the event loop go over in one message. The thread
 * starts on the first post and keeps the process alive only while a post is out; one that dies fails
 * its posts as failed attempts (retried later), and the next post starts another.
 */
export class PostThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, (result: SendResult) => void>();
  private queued: Array<OutgoingPost & { id: number }> = [];

  post(p: OutgoingPost): Promise<SendResult> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, resolve);
      if (this.queued.length === 0) setImmediate(() => this.flush());
      this.queued.push({ id, ...p });
    });
  }

  private flush(): void {
    const posts = this.queued;
    this.queued = [];
    if (posts.length === 0) return;
    const worker = this.started();
    // Held open while a post is out, so its promise settles even when nothing else keeps the loop.
    worker.ref();
    worker.postMessage(posts);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    worker.on('message', (reply: { id: number; status: number | null; error: string | null }) => {
      const resolve = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      resolve?.({ status: reply.status, error: reply.error });
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', () => {});
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = null;
      for (const resolve of this.pending.values()) resolve({ status: null, error: 'the webhook post thread stopped' });
      this.pending.clear();
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
