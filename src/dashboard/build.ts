import { existsSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's browser sources (Preact + MapLibre GL), bundled by esbuild. */
export const DASHBOARD_SOURCE = resolve(dirname(fileURLToPath(import.meta.url)), 'app');
/** Where the bundle goes: beside the sources, never committed (.gitignore). */
export const DASHBOARD_OUTPUT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'dashboard');

const OUTPUTS = ['index.html', 'app.js', 'app.css'];

/** The newest modification time under `dir` (ms). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when a file of the bundle is missing or older than a source file. */
export function dashboardIsStale(outDir = DASHBOARD_OUTPUT): boolean {
  if (!OUTPUTS.every((f) => existsSync(join(outDir, f)))) return true;
  const built = Math.min(...OUTPUTS.map((f) => statSync(join(outDir, f)).mtimeMs));
  return newestMtime(DASHBOARD_SOURCE) > built;
}

/**
 * Bundles the dashboard into `outDir`: one script (the app, Preact and MapLibre GL, whose worker is
 * inlined in its own bundle), one stylesheet and the page. Nothing is fetched at run time.
 */
export async function buildDashboard(outDir = DASHBOARD_OUTPUT): Promise<void> {
  // esbuild is loaded only when a build is needed: a server with a fresh bundle never pays for it.
  const esbuild = await import('esbuild');
  // Built beside the output, then renamed into it file by file: a server (or a second build started
  // at the same time, as by two test processes) never reads half a file.
  const scratch = `${outDir}.${process.pid}.tmp`;
  await mkdir(scratch, { recursive: true });
  try {
    await esbuild.build({
      entryPoints: { app: join(DASHBOARD_SOURCE, 'main.tsx') },
      outdir: scratch,
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      tsconfig: join(DASHBOARD_SOURCE, 'tsconfig.json'),
      loader: { '.css': 'css' },
      logLevel: 'silent',
      legalComments: 'external',
    });
    await copyFile(join(DASHBOARD_SOURCE, 'index.html'), join(scratch, 'index.html'));
    await mkdir(outDir, { recursive: true });
    // The page last: it names the others.
    for (const file of ['app.js.LEGAL.txt', 'app.js', 'app.css', 'index.html'])
      if (existsSync(join(scratch, file))) await rename(join(scratch, file), join(outDir, file));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Builds the dashboard when the bundle is missing or older than its sources; says whether it built. */
export async function ensureDashboardBuilt(outDir = DASHBOARD_OUTPUT): Promise<boolean> {
  if (!dashboardIsStale(outDir)) return false;
  await buildDashboard(outDir);
  return true;
}

// `node --import tsx src/dashboard/build.ts` (npm's prepare script) builds it once.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildDashboard().then(
    () => process.stdout.write(`Dashboard built into ${DASHBOARD_OUTPUT}\n`),
    (err: Error) => {
      process.stderr.write(`Building the dashboard failed: ${err.message}\n`);
      process.exit(1);
    },
  );
}
