import type { Config } from '../config.js';
import { compose } from '../compose.js';

/** Starts the server; returns -1 so main leaves the process running. */
export async function serveCommand(config: Config): Promise<number> {
  const { app, deps, close } = await compose(config);
  if ((await deps.services.projects.list()).length === 0) {
    const { keys } = await deps.services.projects.create('default');
    process.stdout.write(
      [
        'Created project "default". Its keys are shown only this once:',
        `  test publishable  ${keys.test.publishable}`,
        `  test secret       ${keys.test.secret}`,
        `  live publishable  ${keys.live.publishable}`,
        `  live secret       ${keys.live.secret}`,
        '',
      ].join('\n'),
    );
  }
  await app.listen({ host: config.host, port: config.port });
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return -1;
}
