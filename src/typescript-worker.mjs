// The entry of a worker thread whose code is a TypeScript module (workerData.module, a file URL):
// Node 20 does not carry the parent's `--import tsx` loader into worker threads, so register it here.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
