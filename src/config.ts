import path from 'node:path';

/** The effective configuration. `loadConfig` is the only reader of environment variables. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Folder whose `pack/` holds the reference-data pack (`GEODATA_DIR`, default `dataDir`). */
  geodataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** API processes `serve` runs on the one port (WORKERS; Node's cluster), each with its own event loop. */
  workers: number;
  /** Honour `X-Forwarded-For` from a reverse proxy. */
  trustProxy: boolean;
  /** An operator's own MaxMind-format IP database, used instead of the bundled DB-IP Lite. */
  ipDatabase: string | null;
  /** Largest accepted request body, bytes. */
  bodyLimitBytes: number;
  /**
   * Whether this process sends the webhook outbox (`SEND_WEBHOOKS`, default on). Off, its events still
   * owe their deliveries, and processes with it on send them: for nodes that may not open outbound
   * connections.
   */
  sendWebhooks: boolean;
  /** How long SIGTERM waits for requests in flight before cutting their connections (`SHUTDOWN_GRACE_SECONDS`, default 10). */
  shutdownGraceMs: number;
  /**
   * Prometheus metrics (`GET /metrics`, no key): on the API port with `METRICS=on`, on a listener of
   * their own (HOST, `METRICS_PORT`) when that is set; off otherwise.
   */
  metrics: { onApiPort: boolean; port: number | null };
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Reads and validates the environment; throws `ConfigError` with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${env.PORT}".`);
  }
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}".`);
  }
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL.');
  }
  const redisUrl = nonEmpty(env.REDIS_URL);
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL.');
  }
  const workers = Number(env.WORKERS ?? '1');
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new ConfigError(`WORKERS must be a whole number from 1 to 64, got "${env.WORKERS}".`);
  }
  const grace = Number(env.SHUTDOWN_GRACE_SECONDS ?? '10');
  if (!Number.isFinite(grace) || grace < 0 || grace > 3600) {
    throw new ConfigError(
      `SHUTDOWN_GRACE_SECONDS must be a number of seconds from 0 to 3600, got "${env.SHUTDOWN_GRACE_SECONDS}".`,
    );
  }
  const metricsOn = (env.METRICS ?? 'off').trim().toLowerCase();
  if (!['on', 'off', ''].includes(metricsOn)) {
    throw new ConfigError(`METRICS must be on or off, got "${env.METRICS}".`);
  }
  const metricsPort = nonEmpty(env.METRICS_PORT) === null ? null : Number(env.METRICS_PORT);
  if (metricsPort !== null && (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65535)) {
    throw new ConfigError(`METRICS_PORT must be an integer from 1 to 65535, got "${env.METRICS_PORT}".`);
  }
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? './data');
  return {
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    port,
    dataDir,
    // Apart from DATA_DIR so that several servers (or test runs) can share one built, read-only pack.
    geodataDir: path.resolve(nonEmpty(env.GEODATA_DIR) ?? dataDir),
    databaseUrl,
    redisUrl,
    logLevel: logLevel as Config['logLevel'],
    workers,
    trustProxy: ['1', 'true', 'yes'].includes((env.TRUST_PROXY ?? '').toLowerCase()),
    sendWebhooks: !['0', 'false', 'no', 'off'].includes((env.SEND_WEBHOOKS ?? '').toLowerCase()),
    ipDatabase: nonEmpty(env.IP_DATABASE),
    bodyLimitBytes: 5 * 1024 * 1024,
    shutdownGraceMs: Math.round(grace * 1000),
    metrics: { onApiPort: metricsOn === 'on', port: metricsPort },
  };
}

/** The configuration with secrets (passwords in URLs) masked, for printing. */
export function maskedConfig(config: Config): Record<string, unknown> {
  return { ...config, databaseUrl: maskUrl(config.databaseUrl), redisUrl: maskUrl(config.redisUrl) };
}

/** Query parameters that carry secrets: libpq reads `?password=` (and `sslpassword=`) as well as the userinfo. */
const SECRET_QUERY_PARAM = /pass|secret|token/i;

function maskUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    for (const name of [...u.searchParams.keys()]) {
      if (SECRET_QUERY_PARAM.test(name)) u.searchParams.set(name, '****');
    }
    return u.toString();
  } catch {
    return '****';
  }
}

function nonEmpty(v: string | undefined): string | null {
  return v === undefined || v.trim() === '' ? null : v.trim();
}
