import { Worker } from 'node:worker_threads';
import type { SendResult } from '../domain/webhooks/delivery-service.js';

/** A request the thread makes: a POST of `body` with `headers`, given up after `timeoutMs`. */
export interface OutgoingPost {
  url: string;
  body: string;
  headers: Record<string, string | number>;
  timeoutMs: number;
}

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
    // post-worker.ts, through the TypeScript loader's entry (see typescript-worker.mjs).
    const worker = new Worker(new URL('../typescript-worker.mjs', import.meta.url), {
      workerData: { module: new URL('./post-worker.ts', import.meta.url).href },
    });
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
