import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout root, found from this file so the tests run from any clone. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const childEnv = (env: Record<string, string>) => ({
  ...process.env,
  LOG_LEVEL: 'silent',
  DATABASE_URL: '',
  REDIS_URL: '',
  ...env,
});

/** Runs the real CLI (`node --import tsx src/main.ts ...`) as a child process and waits for it. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main.ts'), ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} did not exit within ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawning the process to its "listening" log line. */
  startMs: number;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Starts `serve` on a free loopback port and resolves once it listens. */
export function startServe(env: Record<string, string>, timeoutMs = 60_000): Promise<ServeProcess> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main.ts'), 'serve'], {
      cwd: ROOT,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let listening = false;
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not listen within ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (!url || listening) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        url,
        child,
        startMs: Date.now() - started,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (!listening) reject(new Error(`serve exited with ${code} before listening: ${stdout} ${stderr}`));
    });
  });
}

/** Resident memory of a process in bytes, from /proc (Linux); null elsewhere. */
export async function residentBytes(pid: number): Promise<number | null> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kb = status ? /VmRSS:\s+(\d+) kB/.exec(status)?.[1] : undefined;
  return kb ? Number(kb) * 1024 : null;
}
