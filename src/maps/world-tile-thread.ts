import { Worker } from 'node:worker_threads';
import type { TileCoord } from './tile-grid.js';

interface Reply {
  id: number;
  data?: Uint8Array | null;
  error?: string;
}

/**
 * The world pack's tiles, cut on a thread of its own (world-tile-worker.ts) so that loading the pack's
 * shapes and cutting a tile never stall the requests the event loop serves. The thread starts on the
 * first tile, keeps the process alive only while a tile is out, and one that dies fails its tiles
 * (the next tile starts another).
 */
export class WorldTileThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (d: Uint8Array | null) => void; reject: (e: Error) => void }>();

  constructor(private readonly dataDir: string) {}

  tile(coord: TileCoord): Promise<Uint8Array | null> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      const worker = this.started();
      worker.ref();
      worker.postMessage({ id, coord });
    });
  }

  /** Starts the thread, which loads the world layers at once, so that the first tile waits less. */
  warm(): void {
    this.started();
  }

  /** Stops the thread (the pack it read was replaced); tiles still out fail. */
  close(): void {
    void this.worker?.terminate();
    this.worker = null;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('../typescript-worker.mjs', import.meta.url), {
      workerData: { module: new URL('./world-tile-worker.ts', import.meta.url).href, dataDir: this.dataDir },
    });
    worker.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error === undefined) p?.resolve(reply.data ?? null);
      else p?.reject(new Error(`world tile failed: ${reply.error}`));
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', () => {});
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(new Error('the world tile thread stopped'));
      this.pending.clear();
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
