import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TrackGroups } from './track-groups.js';

interface Entry {
  scope: string;
  keys: string[];
  name: string;
}

const entry = (name: string, keys: string[], scope = 's'): Entry => ({ name, keys, scope });
const turn = () => new Promise((r) => setImmediate(r));

/** Records each group as it starts; `release(i)` finishes the i-th group, putting back what it names. */
function recorder(maxGroups: number, maxSize: number) {
  const started: string[][] = [];
  const finish: Array<(putBack: Entry[]) => void> = [];
  const groups = new TrackGroups<Entry>(maxGroups, maxSize, (group) => {
    started.push(group.map((e) => e.name));
    return new Promise((resolve) => finish.push(resolve));
  });
  return { groups, started, release: (i: number, putBack: Entry[] = []) => finish[i]!(putBack) };
}

describe('TrackGroups', () => {
  it('takes what arrived in one turn as one group, up to its size', async () => {
    const r = recorder(4, 3);
    for (const n of ['a', 'b', 'c', 'd']) r.groups.add(entry(n, [n]));
    assert.deepEqual(r.started, [], 'nothing starts before the turn ends');
    await turn();
    assert.deepEqual(r.started, [['a', 'b', 'c'], ['d']]);
  });

  it('never puts two tracks of one key in one group, nor in two groups at once, and keeps their order', async () => {
    const r = recorder(4, 10);
    r.groups.add(entry('a1', ['dev-a']));
    r.groups.add(entry('b1', ['dev-b', 'user-x']));
    r.groups.add(entry('a2', ['dev-a']));
    r.groups.add(entry('c1', ['dev-c', 'user-x']));
    r.groups.add(entry('d1', ['dev-d']));
    await turn();
    // a2 and c1 wait for the keys a1 and b1 hold; d1 may pass them.
    assert.deepEqual(r.started, [['a1', 'b1', 'd1']]);
    assert.equal(r.groups.waiting, 2);
    r.release(0);
    await turn();
    assert.deepEqual(r.started[1], ['a2', 'c1']);
  });

  it('starts no more groups than allowed, and the waiting ones go together', async () => {
    const r = recorder(1, 10);
    r.groups.add(entry('a', ['a']));
    await turn();
    for (const n of ['b', 'c', 'd']) r.groups.add(entry(n, [n]));
    await turn();
    assert.deepEqual(r.started, [['a']]);
    r.release(0);
    await turn();
    assert.deepEqual(r.started, [['a'], ['b', 'c', 'd']]);
  });

  it('groups one scope at a time', async () => {
    const r = recorder(1, 10);
    r.groups.add(entry('p1', ['k1'], 'p'));
    r.groups.add(entry('q1', ['k2'], 'q'));
    r.groups.add(entry('p2', ['k3'], 'p'));
    await turn();
    r.release(0);
    await turn();
    assert.deepEqual(r.started, [['p1', 'p2'], ['q1']]);
  });

  it('runs what a group puts back before the tracks that came after it', async () => {
    const r = recorder(1, 10);
    const b = entry('b', ['b']);
    r.groups.add(entry('a', ['a']));
    r.groups.add(b);
    await turn();
    r.groups.add(entry('b2', ['b']));
    r.groups.add(entry('c', ['c']));
    await turn();
    r.release(0, [b]);
    await turn();
    assert.deepEqual(r.started, [
      ['a', 'b'],
      ['b', 'c'],
    ]);
    r.release(1);
    await turn();
    assert.deepEqual(r.started[2], ['b2']);
  });
});
