import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Asks a server's `/healthz` back to back, from a thread of its own, between `start` and `stop`: the
 * time of each answer is how long the server's event loop kept it waiting. On the bench's own thread
 * the probe also waited for the bench reading the answer it measures: beside the users list (16 MB),
 * side by side on a loaded machine, a probe there waited 78-185 ms, one on its own thread 29-136 ms,
 * near the server's own longest turn (25-128 ms).
 */
export class HealthzProbe {
  // healthz-probe-worker.ts, through the TypeScript loader's entry (see src/typescript-worker.mjs).
  private readonly worker = new Worker(new URL('../../src/typescript-worker.mjs', import.meta.url), {
    workerData: { module: new URL('./healthz-probe-worker.ts', import.meta.url).href },
  });

  start(url: string): void {
    this.worker.postMessage({ url });
  }

  /** The time of each answer since `start`, in ms. */
  async stop(): Promise<number[]> {
    const answered = once(this.worker, 'message');
    this.worker.postMessage('stop');
    return (await answered)[0] as number[];
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
