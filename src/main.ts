import { ConfigError, loadConfig } from './config.js';

const USAGE = `Usage: npm start | npm run cli -- <command>
  serve                              start the API server (HOST, PORT, DATA_DIR, ...); builds the
                                     world data pack first when GEODATA_DIR has none
  import world                       (re)build the world data pack from the installed npm packages
  import dma <county-dma.csv>        county FIPS -> DMA table (columns county_fips,county_name,state,dma_code,dma_name)
  import postal <zcta.geojson>       Census ZCTA polygons for ZIP codes
  import geofences <project> <file.csv|file.geojson> [--live] [--dry-run]
                                     upsert a project's geofences by tag + externalId (docs/geofence-import.md)
  projects create <name> [--json]    create a project and print its four keys once
  projects list                      list projects
  projects set <name> [--disabled on|off] [--rate-limit <req/s>] [--quota <requests/month>|none]
                      [--regions on|off] [--places on|off] [--insights on|off] [--trip-expiry-minutes <n>]
                      [--keep-events <days>|forever] [--keep-trips <days>|forever] [--keep-users <days>|forever]
  projects usage <name> [--month YYYY-MM]
  projects segments <name> [--set '<JSON array of {description, externalId, condition}>' | --clear]
  projects webhooks <name> [--add <url> [--live] [--types <type,...>] [--mode single|multiple]] [--remove <id>]
                      [--enable <id>] [--disable <id>]      add or change webhooks; prints them
  projects destinations <name> [--add <url> [--live] [--types <type,...>] [--block-tags <tag,...>]
                      [--block-metadata <key,...>]] [--remove <id>] [--enable <id>] [--disable <id>]
                                     events to Redis Streams, NATS JetStream, MQTT or AMQP; prints them
  projects deliveries <name> [--live] [--webhook <id>|--destination <id>] [--limit <n>]   the delivery log
  export <name> events|users|trips|locations --from <date> --to <date> [--format ndjson|csv|parquet]
                      [--live] --out <file>    stream a project's data to a file
  backup <file>                      copy the SQLite store to <file> while the server runs (online backup)
  restore <file>                     put a backup in place of DATA_DIR's database (the server must be stopped)
  print-config                       show the effective configuration (secrets masked)`;

// Commands are imported when run, so a quick one (print-config) does not load the HTTP server.
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return (await import('./cli/serve-command.js')).serveCommand(config);
    case 'projects':
      return (await import('./cli/projects-command.js')).projectsCommand(config, rest);
    case 'import':
      return (await import('./cli/import-command.js')).importCommand(config, rest);
    case 'export':
      return (await import('./cli/export-command.js')).exportCommand(config, rest);
    case 'backup':
      return (await import('./cli/backup-command.js')).backupCommand(config, rest);
    case 'restore':
      return (await import('./cli/backup-command.js')).restoreCommand(config, rest);
    case 'print-config':
      return (await import('./cli/print-config-command.js')).printConfigCommand(config);
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
    // Exit now: a half-opened store or limiter must not keep a failed command running.
    process.exit(1);
  },
);
