import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * BENCH_ALLOC=1 (or `all`): imported into each bench server (`--import`, bench/lib/server-process.ts),
 * it samples the heap's allocations (V8's sampling heap profiler, in this process) between the bench's
 * `<pid>.start` and `<pid>.stop` files in `BENCH_ALLOC_DIR`, and writes `<pid>.alloc.json`: bytes by
 * allocating function. With `1`, only what outlived a scavenge (objects a scavenge collected are left
 * out): what a request leaves for the old generation and its major collections, or keeps alive across
 * a scavenge (which copies it). With `all`, every allocation: what sets how often scavenges come.
 * bench/lib/alloc-watch.ts reads it back per row.
 */
const dir = process.env.BENCH_ALLOC_DIR;
if (dir && isMainThread) {
  const all = process.env.BENCH_ALLOC === 'all';
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))),
    );
  const file = (suffix: string) => path.join(dir, `${process.pid}.${suffix}`);
  let sampling = false;
  setInterval(() => {
    if (!sampling && fs.existsSync(file('start'))) {
      fs.rmSync(file('start'), { force: true });
      sampling = true;
      void post('HeapProfiler.startSampling', {
        // Finer sampling for the survivors, a small part of all that is allocated.
        samplingInterval: all ? 4096 : 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: all,
      });
    } else if (sampling && fs.existsSync(file('stop'))) {
      fs.rmSync(file('stop'), { force: true });
      sampling = false;
      void post<{ profile: SamplingProfile }>('HeapProfiler.stopSampling').then(({ profile }) =>
        fs.writeFileSync(file('alloc.json'), JSON.stringify(bytesBySite(profile))),
      );
    }
  }, 50).unref();
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

interface SamplingProfile {
  head: SamplingNode;
}

/**
 * Sampled bytes by allocating function (`name (file:line:column)`, the file relative to the checkout);
 * a built-in (`set`, `slice`: no file) is named with the function that called it.
 */
function bytesBySite(profile: SamplingProfile): Record<string, number> {
  const root = `${process.cwd()}/`;
  const name = (f: SamplingNode['callFrame']) =>
    `${f.functionName || '(anonymous)'}${f.url ? ` (${f.url.replace('file://', '').replace(root, '')}:${f.lineNumber + 1}:${f.columnNumber + 1})` : ''}`;
  // No prototype: a site may be named like one of its members (`constructor`).
  const sites: Record<string, number> = Object.create(null);
  const stack: Array<[SamplingNode, string]> = [[profile.head, '']];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, caller] = top;
    const own = name(node.callFrame);
    for (const child of node.children) stack.push([child, own]);
    if (node.selfSize === 0) continue;
    const site = node.callFrame.url || !caller ? own : `${own} < ${caller}`;
    sites[site] = (sites[site] ?? 0) + node.selfSize;
  }
  return sites;
}
