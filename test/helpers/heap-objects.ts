import v8 from 'node:v8';

/**
 * An object on the heap as a snapshot shows it: what it references, by property or internal name, and
 * its hidden references as `hidden <n>` (a double field's box, a `heap number`, is one).
 */
export type HeapObject = Map<string, { node: number; name: string }>;

/**
 * The live objects that hold the string `value` under `key`, from a heap snapshot (taken after a full
 * garbage collection). For tests of what JavaScript cannot observe: an object's hidden class (its
 * `map` reference), fields kept outside the object (a `properties` reference to a PropertyArray), two
 * objects holding one string or two copies of it. A snapshot of a test process takes ~0.5 s.
 */
export async function heapObjectsWith(key: string, value: string): Promise<HeapObject[]> {
  const { snapshot, nodes, edges, strings } = await heapSnapshot();
  const { node_fields: nodeFields, edge_fields: edgeFields, edge_types: edgeTypes } = snapshot.meta;
  const nodeName = nodeFields.indexOf('name');
  const edgeCount = nodeFields.indexOf('edge_count');
  const edgeType = edgeFields.indexOf('type');
  const edgeName = edgeFields.indexOf('name_or_index');
  const toNode = edgeFields.indexOf('to_node');
  const found: HeapObject[] = [];
  let e = 0;
  for (let n = 0; n < nodes.length; n += nodeFields.length) {
    const refs: HeapObject = new Map();
    for (let k = 0; k < nodes[n + edgeCount]!; k++, e += edgeFields.length) {
      const type = edgeTypes[0][edges[e + edgeType]!];
      // Element and hidden references are named by a number, the others by a string.
      if (type === 'element') continue;
      const to = edges[e + toNode]!;
      const name = type === 'hidden' ? `hidden ${edges[e + edgeName]}` : strings[edges[e + edgeName]!]!;
      refs.set(name, { node: to, name: strings[nodes[to + nodeName]!]! });
    }
    if (refs.get(key)?.name === value) found.push(refs);
  }
  return found;
}

async function heapSnapshot(): Promise<Snapshot> {
  const chunks: Buffer[] = [];
  for await (const chunk of v8.getHeapSnapshot()) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString()) as Snapshot;
}

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}
