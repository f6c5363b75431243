import { parentPort } from 'node:worker_threads';
import { buildTreeHere, type TreeInput } from '../domain/geofences/packed-tree.js';

// The thread `TreeBuildThread` starts: the same build as on the event loop (`buildTreeHere`). The input
// is read in shared memory and the tree leaves transferred: nothing is copied either way.
parentPort?.on('message', ({ id, input }: { id: number; input: TreeInput }) => {
  try {
    const built = buildTreeHere(input);
    if (!built) throw new Error('nothing to build');
    parentPort!.postMessage({ id, built }, [built.data, built.itemSlot.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
});
