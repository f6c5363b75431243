import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allocProbeArgs } from './alloc-watch.js';
import { type LoadRequest, measure } from './load.js';
import type { BenchContext, BenchResult } from './types.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor-server.ts');

export type FloorMode = 'node' | 'fastify';

/**
 * Measures the same requests as a row against a floor server (`floor-server.ts`) in its own process,
 * which parses each body and sends `answer`: what the exchange alone costs this machine, the part of a
 * row's CPU that no change to the product's own code can remove (with `fastify`: none that keeps
 * the framework).
 */
export async function measureFloor(
  ctx: BenchContext,
  name: string,
  mode: FloorMode,
  answer: string,
  requests: LoadRequest[] | (() => LoadRequest),
): Promise<BenchResult> {
  const child = spawn(process.execPath, [...allocProbeArgs(), '--import', 'tsx', SCRIPT, mode], {
    env: { ...process.env, FLOOR_ANSWER: answer },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`floor server exited with code ${code}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const floor: BenchContext = { ...ctx, url, urls: [url], serverPids: [child.pid!], localDatabase: false };
    return await measure(floor, name, requests);
  } finally {
    // Gone before the next row starts, so that it takes none of that row's CPU.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}
