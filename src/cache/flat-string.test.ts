import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import { flat } from './flat-string.js';

/** A rope of many pieces, as the presenters build their texts. */
function rope(marker: string): string {
  let s = `{"marker":"${marker}"`;
  for (let i = 0; i < 40; i++) s += `,"field${i}":${i}`;
  return `${s}}`;
}

/** The heap snapshot's node types of the strings whose whole content is `text`. */
async function heapTypesOf(text: string): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of v8.getHeapSnapshot()) chunks.push(String(chunk));
  const snap = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const [type, name] = [fields.indexOf('type'), fields.indexOf('name')];
  const types: string[] = [];
  for (let i = 0; i < snap.nodes.length; i += fields.length)
    if (snap.strings[snap.nodes[i + name]!] === text)
      types.push(snap.snapshot.meta.node_types[0][snap.nodes[i + type]!]!);
  return types;
}

describe('flat', () => {
  it('returns the same text, its characters in one contiguous string', async () => {
    const kept = rope(`flat-${process.pid}-${Date.now()}`);
    assert.equal(flat(kept), kept);
    // A flat string shows in a heap snapshot as a 'string' node holding the whole text.
    assert.ok((await heapTypesOf(kept)).includes('string'), 'no contiguous copy of the text on the heap');
  });

  it('is needed: a rope left alone has no contiguous copy (the check above can fail)', async () => {
    const kept = rope(`rope-${process.pid}-${Date.now()}`);
    assert.ok(!(await heapTypesOf(kept)).includes('string'));
    assert.equal(kept.length > 0, true);
  });
});
