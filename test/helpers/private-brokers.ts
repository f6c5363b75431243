import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { answers } from './brokers.js';
import { freePort } from './free-port.js';

/**
 * Brokers of a test's own, each on a free loopback port with its files in a temporary directory, that
 * the test may stop and start again without disturbing the machine's shared brokers (or another test
 * file using them). Each factory answers null when the broker is not installed.
 */
export interface PrivateBroker {
  readonly port: number;
  /** Starts it (again) and resolves once its port answers; does nothing while it runs. */
  start(): Promise<void>;
  /** Stops it: its port closes; what it persists to its directory stays for the next start. */
  stop(): Promise<void>;
  /** Stops it for good and removes its directory (safe to call in any state). */
  close(): Promise<void>;
}

const run = promisify(execFile);
const installed = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));

async function untilAnswers(port: number, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await answers(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not answer on port ${port} within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A broker that is one child process: stopping it is SIGTERM, starting it spawns it again. */
async function childBroker(name: string, args: (port: number, dir: string) => string[]): Promise<PrivateBroker> {
  const port = await freePort();
  let dir: string | null = null; // made at the first start: a test that is skipped leaves nothing behind
  let child: ChildProcess | null = null;
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  return {
    port,
    async start() {
      if (child) return;
      dir ??= tempDir(name);
      child = spawn(name, args(port, dir), { stdio: 'ignore' });
      await untilAnswers(port, name);
    },
    stop,
    async close() {
      await stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Redis with an append-only file, so that the stream outlives a restart as a production Redis's does. */
export function privateRedis(): Promise<PrivateBroker> | null {
  if (!installed('redis-server')) return null;
  return childBroker('redis-server', (port, dir) => [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    ...['--save', '', '--appendonly', 'yes'],
  ]);
}

/** NATS with JetStream, its store in the broker's directory (a file-stored stream outlives a restart). */
export function privateNats(): Promise<PrivateBroker> | null {
  if (!installed('nats-server')) return null;
  return childBroker('nats-server', (port, dir) => ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir]);
}

/** Mosquitto without persistence: a consumer subscribes again once it is back. */
export function privateMosquitto(): Promise<PrivateBroker> | null {
  if (!installed('mosquitto')) return null;
  return childBroker('mosquitto', (port) => ['-p', String(port)]);
}

/**
 * Debian's rabbitmq-server and rabbitmqctl in /usr/sbin switch to the rabbitmq user, dropping the
 * environment that makes the node private (its HOME holds the Erlang cookie): the scripts they wrap
 * run as the caller.
 */
const RABBITMQ_BIN = fs.existsSync('/usr/lib/rabbitmq/bin/rabbitmq-server') ? '/usr/lib/rabbitmq/bin/' : '';

/**
 * A RabbitMQ node of its own (its name, ports, cookie, config, database and logs): the first start
 * boots the Erlang node (several seconds); stopping and starting again is `rabbitmqctl stop_app` /
 * `start_app`, which closes and reopens the AMQP port while the Erlang node stays up, as a restarted
 * broker keeps its durable exchanges and queues. `close` kills the node.
 */
export async function privateRabbit(): Promise<PrivateBroker | null> {
  if (!installed(`${RABBITMQ_BIN}rabbitmq-server`)) return null;
  let port = await freePort();
  let node = '';
  /** Set at the first start, with the node's directory: a test that is skipped leaves nothing behind. */
  let env: NodeJS.ProcessEnv | null = null;
  let running = false;
  const ctl = (...args: string[]) => run(`${RABBITMQ_BIN}rabbitmqctl`, ['-n', node, ...args], { env: env! });
  const kill = () => {
    if (!env) return;
    // By the pid it wrote once booted, and by its (random) name while it boots: its files are thrown
    // away, so nothing needs a graceful stop.
    try {
      process.kill(Number(fs.readFileSync(env.RABBITMQ_PID_FILE!, 'utf8').trim()), 'SIGKILL');
    } catch {
      // No pid file yet, or no such process.
    }
    spawnSync('pkill', ['-KILL', '-f', node.split('@')[0]!]);
    fs.rmSync(env.HOME!, { recursive: true, force: true });
  };
  /**
   * Boots a new node; one that does not answer is killed and a second one, on other ports and under
   * another name, gets a try before the start fails with what both logs said.
   */
  const boot = async () => {
    const logs: string[] = [];
    for (let attempt = 1; attempt <= 2; attempt++) {
      if (attempt > 1) port = await freePort();
      node = `wb${randomBytes(4).toString('hex')}@localhost`;
      env = rabbitEnv(node, port, await freePort());
      await run(`${RABBITMQ_BIN}rabbitmq-server`, ['-detached'], { env });
      try {
        // A first boot takes about 5 s on an idle 2-core machine; the rest is room for a loaded one.
        return await untilAnswers(port, `RabbitMQ node ${node}`, 90_000);
      } catch (err) {
        logs.push(`${(err as Error).message}; its log ends:\n${logTail(env.RABBITMQ_LOG_BASE!)}`);
        kill();
      }
    }
    throw new Error(logs.join('\n'));
  };
  return {
    get port() {
      return port;
    },
    async start() {
      if (running) return;
      if (env) {
        await ctl('start_app');
        await untilAnswers(port, `RabbitMQ node ${node}`);
      } else await boot();
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
      await ctl('stop_app');
    },
    async close() {
      running = false;
      kill();
    },
  };
}

/** The last lines of each log in a directory: what a broker that did not come up said about it. */
function logTail(dir: string, lines = 15): string {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (files.length === 0) return `(nothing in ${dir})`;
  return files
    .map((f) => `${f}:\n${fs.readFileSync(path.join(dir, f), 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`)
    .join('\n');
}

/** A RabbitMQ node's environment: everything in a directory of its own (HOME holds its Erlang cookie). */
function rabbitEnv(node: string, port: number, distPort: number): NodeJS.ProcessEnv {
  const dir = tempDir('rabbitmq');
  fs.writeFileSync(path.join(dir, 'enabled_plugins'), '[].');
  fs.writeFileSync(path.join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${port}\n`);
  fs.writeFileSync(path.join(dir, 'rabbitmq-env.conf'), '');
  return {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: node,
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_PID_FILE: path.join(dir, 'node.pid'),
    // A node killed while it boots writes a crash dump: there, not into the caller's folder.
    ERL_CRASH_DUMP: path.join(dir, 'erl_crash.dump'),
  };
}
