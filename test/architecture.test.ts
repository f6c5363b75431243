// store-independent: reads the source files' imports; starts no server
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The layering rules of docs/architecture.md, checked on the import statements themselves (biome's
 * noRestrictedImports names packages, not our own folders): the domain imports neither the HTTP layer
 * nor a storage engine, no two modules import each other (even by types), and the service wiring
 * imports no route.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** `src/...` paths with forward slashes, as the failure messages print them. */
const name = (file: string) => relative(ROOT, file).split(sep).join('/');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

// `import x from`, `import type { a, b } from`, `export * from`, `export { a } from` (over several lines),
// and bare `import '...'`. The specifier list holds only names, braces, commas, `*` and spaces, so an
// `export const` cannot run on into a later statement's `from`.
const FROM = /^[ \t]*(?:import|export)\s[\w$*\s{},]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;

/** The src files a file imports (relative specifiers only; packages are not ours). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const re of [FROM, BARE]) {
    for (const m of text.matchAll(re)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (target.endsWith('.ts')) found.push(target);
    }
  }
  return found;
}

const files = sourceFiles(SRC).sort();
const graph = new Map(files.map((f) => [name(f), importsOf(f).map(name)]));

/** Every elementary cycle a depth-first walk meets (one per back edge), each as its path of files. */
function findCycles(edges: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const s = state.get(next);
      if (s === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (s === undefined && edges.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('architecture', () => {
  it('reads the imports of every source file', () => {
    // A parser that found nothing would pass every rule below.
    assert.ok(files.length > 100, `only ${files.length} files under src`);
    const services = graph.get('src/services.ts') ?? [];
    assert.ok(services.includes('src/domain/tracking/tracking-service.ts'), 'services.ts imports not read');
  });

  it('keeps the domain free of the HTTP layer and the storage engines', () => {
    const breaches: string[] = [];
    for (const [file, targets] of graph) {
      if (!file.startsWith('src/domain/')) continue;
      for (const t of targets) {
        if (t.startsWith('src/http/') || t.startsWith('src/storage/')) breaches.push(`${file} -> ${t}`);
      }
    }
    assert.deepEqual(breaches, [], `the domain imports outer layers:\n${breaches.join('\n')}`);
  });

  it('has no import cycles', () => {
    const cycles = findCycles(graph).map((c) => c.join(' -> '));
    assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
  });

  it('wires services without any route', () => {
    const routes = (graph.get('src/services.ts') ?? []).filter((t) => t.startsWith('src/http/routes/'));
    assert.deepEqual(routes, [], `src/services.ts imports routes: ${routes.join(', ')}`);
  });
});
