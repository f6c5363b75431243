import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { importDma } from '../geodata/import-dma.js';
import { importPostal } from '../geodata/import-postal.js';
import { formatImportSummary, type ImportSummary } from '../geodata/manifest.js';
import { importOsm } from '../geodata/osm/import-osm.js';
import { importWorld } from '../geodata/world/import-world.js';
import { IMPORT_GEOFENCES_USAGE, importGeofencesCommand } from './import-geofences-command.js';
import { progressBar } from './progress-bar.js';

const USAGE = `import needs a source:
  npm run cli -- import world                     build the world pack from the installed npm packages
  npm run cli -- import dma <county-dma.csv>      county FIPS -> DMA table (county_fips,county_name,state,dma_code,dma_name)
  npm run cli -- import postal <zcta> [<zcta> …]  Census ZCTA polygons: GeoJSON, .shp or the Census .zip as published;
                                                  each file adds or replaces only its own codes
  npm run cli -- import osm <file.osm.pbf>        an OpenStreetMap region: places, addresses, streets, road graphs
  ${IMPORT_GEOFENCES_USAGE}
                                                  a project's geofences from CSV or GeoJSON (docs/geofence-import.md)`;

/**
 * `import world | dma <csv> | postal <zcta…> | osm <pbf>`: builds or replaces one layer of the pack under
 * GEODATA_DIR and prints what it loaded. A running server on that pack reloads it by itself.
 */
export async function importCommand(config: Config, args: string[]): Promise<number> {
  const [source, file, ...extra] = args;
  if (source === 'geofences') {
    try {
      return await importGeofencesCommand(config, args.slice(1));
    } catch (err) {
      process.stderr.write(`import geofences failed: ${(err as Error).message}\n`);
      return 2;
    }
  }
  if (extra.length > 0 && source !== 'postal')
    return fail(`import ${source}: unexpected argument "${extra[0]}".\n${USAGE}`);
  try {
    switch (source) {
      case 'world':
        if (file) return fail(`import world takes no file (it reads the installed npm packages), got "${file}".`);
        return done(await buildWorldPack(config.geodataDir));
      case 'dma':
        return done(await importDma(config.geodataDir, inputFile('dma', file, '<county-dma.csv>')));
      case 'postal':
        return done(
          await importPostal(
            config.geodataDir,
            [file, ...extra].map((f) => inputFile('postal', f, '<zcta.geojson|zcta.zip>')),
            { onProgress: progressBar('Importing ZCTA polygons') },
          ),
        );
      case 'osm':
        return done(
          await importOsm(config.geodataDir, inputFile('osm', file, '<file.osm.pbf>'), {
            onProgress: progressBar(`Importing ${file}`),
          }),
        );
      default:
        return fail(`${source ? `import: unknown source "${source}".\n` : ''}${USAGE}`);
    }
  } catch (err) {
    process.stderr.write(`import ${source} failed: ${(err as Error).message}\n`);
    return 1;
  }
}

/** Builds the world pack with a progress bar on stderr (also what the first `serve` runs). */
export function buildWorldPack(geodataDir: string): Promise<ImportSummary> {
  return importWorld(geodataDir, { onProgress: progressBar('Building the world data pack') });
}

function inputFile(source: string, file: string | undefined, placeholder: string): string {
  if (!file) throw new Error(`a file is needed: npm run cli -- import ${source} ${placeholder}`);
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new Error(`no file at ${path}`);
  return path;
}

function done(summary: ImportSummary): number {
  process.stdout.write(`${formatImportSummary(summary)}\n`);
  process.stdout.write('A running server on this pack picks the change up within a few seconds.\n');
  return 0;
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}
