import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BuiltTree, TreeBuilder } from '../domain/geofences/packed-tree.js';

// Plain CommonJS, so the worker needs no TypeScript loader; flatbush is an ES module, hence import().
// It does what `buildTreeHere` does (the tests hold the two to the same bytes). The input is read in
// shared memory and the tree leaves transferred: nothing is copied either way.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = import(workerData.flatbush).then((m) => m.default);
parentPort.on('message', async ({ id, input: { boxes, held, extra } }) => {
  try {
    const Flatbush = await loaded;
    let count = extra.length / 5;
    for (let slot = 0; slot < held.length; slot++) if (held[slot] !== 0) count++;
    const tree = new Flatbush(count);
    const itemSlot = new Uint32Array(count);
    let item = 0;
    for (let slot = 0; slot < held.length; slot++) {
      if (held[slot] === 0) continue;
      const o = slot * 4;
      tree.add(boxes[o], boxes[o + 1], boxes[o + 2], boxes[o + 3]);
      itemSlot[item++] = slot;
    }
    for (let o = 0; o < extra.length; o += 5) {
      tree.add(extra[o + 1], extra[o + 2], extra[o + 3], extra[o + 4]);
      itemSlot[item++] = extra[o];
    }
    tree.finish();
    parentPort.postMessage({ id, built: { data: tree.data, itemSlot } }, [tree.data, itemSlot.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

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
    const flatbush = pathToFileURL(createRequire(import.meta.url).resolve('flatbush')).href;
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { flatbush } });
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
