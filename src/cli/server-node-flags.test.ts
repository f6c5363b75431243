import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { SERVER_NODE_FLAGS } from './server-node-flags.js';

describe('server node flags', () => {
  it('npm start passes every one of them to node', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const start = pkg.scripts.start!.split(/\s+/);
    assert.equal(start[0], 'node', 'npm start runs node itself, so that it can pass flags to V8');
    for (const flag of SERVER_NODE_FLAGS) assert.ok(start.includes(flag), `npm start lacks ${flag}`);
  });
});
