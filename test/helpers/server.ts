import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/domain/clock.js';
import type { ProjectKeys } from '../../src/domain/projects/keys.js';
import type { AppDeps } from '../../src/http/context.js';
import { engineEnv } from './engine.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string | null;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  dataDir: string;
  deps: AppDeps;
  projectId: string;
  keys: ProjectKeys;
  request<T = any>(method: string, urlPath: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  /** Creates another project (rate limit raised like the first one) and returns its keys. */
  createProject(name: string): Promise<{ projectId: string; keys: ProjectKeys }>;
  /** Changes a project's settings in the store and drops cached keys, as the CLI would. */
  updateProject(name: string, change: Parameters<AppDeps['services']['projects']['update']>[1]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a real server on a free loopback port over a fresh data directory, with one project
 * ("default") whose per-key limit is raised so tests are not throttled unless they ask to be.
 */
export async function startServer(
  opts: { env?: Record<string, string>; clock?: Clock; requestsPerSecond?: number } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-test-'));
  const engine = await engineEnv();
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    ...engine.env,
    ...opts.env,
  });
  const composed = await compose(config, opts.clock ? { clock: opts.clock } : {}).catch(async (err: unknown) => {
    await engine.cleanup();
    throw err;
  });
  const { app, deps, close } = composed;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a port');
  const url = `http://127.0.0.1:${address.port}`;
  const rps = opts.requestsPerSecond ?? 1_000_000;

  const createProject = async (name: string) => {
    const { project, keys } = await deps.services.projects.create(name);
    await deps.services.projects.update(name, (p) => ({ ...p, limits: { ...p.limits, requestsPerSecond: rps } }));
    deps.keys.invalidate();
    return { projectId: project.id, keys };
  };
  const first = await createProject('default');

  return {
    url,
    dataDir,
    deps,
    projectId: first.projectId,
    keys: first.keys,
    request: (method, urlPath, o = {}) => request(url, method, urlPath, o),
    createProject,
    updateProject: async (name, change) => {
      await deps.services.projects.update(name, change);
      deps.keys.invalidate();
    },
    close: async () => {
      await close();
      await engine.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function request<T = any>(
  base: string,
  method: string,
  urlPath: string,
  o: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = o.key;
  let body: string | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof o.json === 'string' ? o.json : JSON.stringify(o.json);
  } else if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(o.form).toString();
  }
  const res = await fetch(base + urlPath, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    // Left as text: a test asserting JSON will fail with the body in view.
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(public ms = Date.parse('2026-01-05T12:00:00.000Z')) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
