import { loadConfig, ConfigError } from './config.js';
import { projectsCommand } from './cli/projects-command.js';
import { printConfigCommand } from './cli/print-config-command.js';
import { serveCommand } from './cli/serve-command.js';

const USAGE = `Usage: npm start | npm run cli -- <command>
  serve                              start the API server (HOST, PORT, DATA_DIR, ...)
  projects create <name> [--json]    create a project and print its four keys once
  projects list                      list projects
  projects set <name> [--disabled on|off] [--rate-limit <req/s>] [--quota <requests/month>|none]
                      [--regions on|off] [--places on|off] [--insights on|off]
  projects usage <name> [--month YYYY-MM]
  print-config                       show the effective configuration (secrets masked)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serveCommand(config);
    case 'projects':
      return projectsCommand(config, rest);
    case 'print-config':
      return printConfigCommand(config);
    default:
      process.stderr.write(`${command ? `Unknown command "${command}".\n` : ''}${USAGE}\n`);
      return command ? 2 : 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== -1) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof ConfigError ? 'Configuration error: ' : ''}${(err as Error).message}\n`);
    if (!(err instanceof ConfigError)) process.stderr.write(`${(err as Error).stack}\n`);
    process.exitCode = 1;
  },
);
