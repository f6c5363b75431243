import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../src/cli/server-node-flags.js';
import { sharedTestPack } from '../../src/geodata/test-pack.js';
import { allocDir, allocProbeArgs } from './alloc-watch.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// BENCH_STALLS=1: every bench server appends its event loop's pauses to one file (stall-probe.ts),
// which the fixed-rate rows' load process (forked with this environment) reads back.
if (process.env.BENCH_STALLS && !process.env.BENCH_STALLS_FILE) {
  const file = path.join(os.tmpdir(), `whereabouts-bench-stalls-${process.pid}.log`);
  process.env.BENCH_STALLS_FILE = file;
  process.on('exit', () => fs.rmSync(file, { force: true }));
}
// BENCH_ALLOC=1 or all: every bench server samples its allocations when a row asks (alloc-probe.ts),
// through files in one folder.
if (process.env.BENCH_ALLOC && !process.env.BENCH_ALLOC_DIR) process.env.BENCH_ALLOC_DIR = allocDir();
// tsx first: the probe is TypeScript, and these flags come before the server's own `--import tsx`.
const STALL_PROBE = ['--import', 'tsx', '--import', path.join(ROOT, 'bench/lib/stall-probe.ts')];

export interface ServerProcess {
  url: string;
  pid: number;
  dataDir: string;
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The world pack every bench server opens (GEODATA_DIR): `BENCH_PACK_DIR` when set (a folder holding
 * `pack/world`), else the tests' shared pack, built once and reused, so no scenario builds its own.
 */
export async function benchPackDir(): Promise<string> {
  return process.env.BENCH_PACK_DIR ? path.resolve(process.env.BENCH_PACK_DIR) : (await sharedTestPack()).dataDir;
}

/**
 * Starts `src/main.ts serve` in its own process (so load generation does not share its core), in a
 * fresh DATA_DIR unless `env` names one, which it then leaves.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-bench-'));
  const ownDir = env.DATA_DIR === undefined;
  const port = await freePort();
  const fullEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    GEODATA_DIR: await benchPackDir(),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...env,
  };
  // BENCH_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, profiles the server under load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (process.env.BENCH_STALLS_FILE) nodeArgs.push(...STALL_PROBE);
  nodeArgs.push(...allocProbeArgs());
  // Nothing reads a pipe here, and a full pipe would stall the server's writes (--trace-gc, logs):
  // BENCH_SERVER_LOG=<file> keeps what it prints, else it is dropped.
  const log = process.env.BENCH_SERVER_LOG;
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', 'src/main.ts', 'serve'],
    {
      cwd: ROOT,
      env: fullEnv,
      stdio: ['ignore', log ? fs.openSync(log, 'a') : 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForReady(url, child);
  const cli = (args: string[]) => runCli(args, fullEnv);
  return {
    url,
    pid: child.pid!,
    dataDir,
    cli,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A port no one listens on now, from the kernel (a random pick could land on another bench's
 * server, which would then answer this one's readiness check).
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready within 120 s');
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} exited ${code}`)),
    );
  });
}
