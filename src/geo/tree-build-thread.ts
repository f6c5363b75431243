import { Worker } from 'node:worker_threads';
import type { BuiltTree, TreeBuilder } from '../domain/geofences/packed-tree.js';

interface Reply {
  id: number;
  built?: BuiltTree;
  error?: string;
}

/**
 * Sorts flatbush trees on a thread of their own (`TreeBuilder` for `GeofenceIndex`), so that rebuilding
 * a large fence index does not stall the requests the event loop is serving. The thread starts on the
 * first build and keeps the process alive only while a build is out; one that dies fails its builds
 * (the index then builds in place), and the next build starts another.
 */
export class TreeBuildThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (built: BuiltTree) => void; reject: (err: Error) => void }>();

  readonly build: TreeBuilder = (input) =>
    new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      const worker = this.started();
      // Held open while a build is out, so its promise settles even when nothing else keeps the loop.
      worker.ref();
      // Nothing transferred: the per-slot views are the index's own arrays (shared when the index
      // allocates them so; plain ones would be copied), and the second boxes are few.
      worker.postMessage({ id, input });
    });

  private started(): Worker {
    if (this.worker) return this.worker;
    // The thread runs tree-build-worker.ts through the TypeScript loader's entry; should it fail to load,
    // its builds fail and the index builds in place.
    const worker = new Worker(new URL('../typescript-worker.mjs', import.meta.url), {
      workerData: { module: new URL('./tree-build-worker.ts', import.meta.url).href },
    });
    worker.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.built) p?.resolve(reply.built);
      else p?.reject(new Error(`tree build failed: ${reply.error}`));
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', () => {});
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(new Error('the tree build thread stopped'));
      this.pending.clear();
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
