import { fork } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { printSlowQuarters } from './slow-quarters.js';

/** One request of a fixed-rate run, already in its final form. */
export interface FixedRateRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A fixed-rate run: `rate` requests per second, evenly spaced, over at most `connections` sockets. */
export interface FixedRateOptions {
  url: string;
  requests: FixedRateRequest[];
  rate: number;
  connections: number;
  durationSeconds: number;
  /** Seconds sent at the rate before the measured part, on the same connections; not counted. */
  warmupSeconds?: number;
  /** Called once the warm-up is over and the measured part starts. */
  measuring?: (() => void) | undefined;
}

export interface FixedRateResult {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/**
 * Sends `rate` requests per second, one every `1/rate` s (open loop), and reports their latency, in a
 * child process. autocannon's `overallRate` is not that: each connection sends its per-second share back
 * to back at the start of every second and then waits, so the server sees a burst of `connections`
 * concurrent requests once a second and the p99 measures the burst. Its own process keeps the bench
 * process's garbage collection (it holds the request lists and pack tables) out of the latencies.
 */
export function fixedRateLoad(opts: FixedRateOptions): Promise<FixedRateResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, FIXED_RATE_CHILD: '1' } });
    let result: FixedRateResult | undefined;
    const { measuring, ...sent } = opts;
    child.on('message', (m) => {
      if (m === MEASURING) return measuring?.();
      result = m as FixedRateResult;
      child.kill();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`fixed-rate load process exited with code ${code}`)),
    );
    child.send(sent);
  });
}

/** The child's message as its measured part starts. */
const MEASURING = 'measuring';

// Responses still open this long after the last request was sent count as errors (timeouts).
const DRAIN_MS = 10_000;

/** Per socket: the request in flight (its start time) and the bytes of its response so far. */
interface Connection {
  socket: net.Socket;
  startedAt: number;
  busy: boolean;
  /** Whether the request in flight is in the measured part. */
  counted: boolean;
  received: Buffer;
}

async function run(opts: FixedRateOptions): Promise<FixedRateResult> {
  const { hostname, port } = new URL(opts.url);
  const wire = opts.requests.map((r) => encode(r, `${hostname}:${port}`));
  // Requests are numbered from the run's start; the first `skipped` (the warm-up) are sent but not counted.
  const skipped = Math.round(opts.rate * (opts.warmupSeconds ?? 0));
  const measured = Math.round(opts.rate * opts.durationSeconds);
  const total = skipped + measured;
  const latencies = new Float64Array(measured);
  // When each counted request was due, for BENCH_TIMELINE.
  const dueTimes = new Float64Array(measured);
  let done = 0;
  let errors = 0;
  let issued = 0;
  let answered = 0;
  let measuredStart = 0;
  // Requests due while every connection was busy, with the time they were due.
  const waiting: number[] = [];
  const idle: Connection[] = [];

  const send = (c: Connection, dueAt: number) => {
    c.busy = true;
    c.startedAt = dueAt;
    c.counted = issued >= skipped;
    if (issued === skipped) {
      measuredStart = performance.now();
      process.send?.(MEASURING);
    }
    c.socket.write(wire[issued++ % wire.length]!);
  };
  const finished = (c: Connection, ok: boolean) => {
    answered++;
    if (c.counted) {
      dueTimes[done] = c.startedAt;
      latencies[done++] = performance.now() - c.startedAt;
      if (!ok) errors++;
    }
    c.busy = false;
    const dueAt = waiting.shift();
    if (dueAt !== undefined) send(c, dueAt);
    else idle.push(c);
  };
  const connect = (): Promise<Connection> =>
    new Promise((resolve, reject) => {
      const c: Connection = {
        socket: net.connect(Number(port), hostname),
        startedAt: 0,
        busy: false,
        counted: false,
        received: EMPTY,
      };
      c.socket.setNoDelay(true);
      c.socket.once('connect', () => resolve(c));
      // A socket that fails is not used again; its request, never answered, counts as an error.
      c.socket.on('error', reject);
      c.socket.on('data', (chunk: Buffer) => {
        c.received = c.received.length ? Buffer.concat([c.received, chunk]) : chunk;
        const status = completeResponse(c);
        if (status !== null) finished(c, status >= 200 && status < 300);
      });
    });
  const conns = await Promise.all(Array.from({ length: Math.max(1, opts.connections) }, connect));
  idle.push(...conns);

  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) * opts.rate) / 1000));
      for (let k = issued + waiting.length; k < due; k++) {
        const c = idle.pop();
        if (c) send(c, now);
        else waiting.push(now);
      }
      if (due < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const drainUntil = performance.now() + DRAIN_MS;
  while (answered < total && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 5));
  const elapsed = (performance.now() - measuredStart) / 1000;
  for (const c of conns) c.socket.destroy();
  if (process.env.BENCH_TIMELINE || process.env.BENCH_STALLS_FILE)
    printSlowQuarters(dueTimes.subarray(0, done), latencies.subarray(0, done), measuredStart, opts.durationSeconds);
  const sorted = latencies.subarray(0, done).sort();
  const at = (q: number) => (done ? Math.round(sorted[Math.min(done - 1, Math.floor(q * done))]! * 10) / 10 : 0);
  return {
    requests: done,
    reqPerSec: Math.round(done / Math.max(elapsed, opts.durationSeconds)),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors: errors + (measured - done),
  };
}

const EMPTY = Buffer.alloc(0);
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * The status of the response held in `c.received` once it is complete (its bytes then dropped), else
 * null. Responses carry Content-Length (Fastify sets it on every reply this API sends).
 */
function completeResponse(c: Connection): number | null {
  const buf = c.received;
  const end = buf.indexOf(HEADER_END);
  if (end < 0) return null;
  const head = buf.toString('latin1', 0, end);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const size = end + 4 + (length ? Number(length[1]) : 0);
  if (buf.length < size) return null;
  c.received = buf.length > size ? buf.subarray(size) : EMPTY;
  return Number(head.slice(9, 12));
}

function encode(r: FixedRateRequest, host: string): Buffer {
  const lines = [`${r.method} ${r.path} HTTP/1.1`, `host: ${host}`, 'connection: keep-alive'];
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  if (r.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(r.body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${r.body ?? ''}`);
}

if (process.env.FIXED_RATE_CHILD && process.send) {
  process.once('message', (opts) => {
    run(opts as FixedRateOptions).then(
      (result) => process.send!(result),
      (err: Error) => {
        process.stderr.write(`fixed-rate load: ${err.message}\n`);
        process.exit(1);
      },
    );
  });
}
