import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { CHUNK_CHARS, dictionaryAnswerBody, jsonListBody, listAnswerBody } from './json-list-body.js';

/** The whole text of a body, and how many pieces it came in. */
async function collect(body: string | Readable | undefined): Promise<{ text: string; pieces: number }> {
  if (body === undefined) throw new Error('no body');
  if (typeof body === 'string') return { text: body, pieces: 1 };
  let text = '';
  let pieces = 0;
  for await (const chunk of body) {
    text += String(chunk);
    pieces++;
  }
  return { text, pieces };
}

describe('jsonListBody', () => {
  it('gives a list that fits in a chunk as one string', () => {
    assert.equal(
      jsonListBody('{"a":[', 3, (i) => String(i), ']}'),
      '{"a":[0,1,2]}',
    );
    assert.equal(
      jsonListBody('{"a":[', 0, (i) => String(i), ']}'),
      '{"a":[]}',
    );
  });

  it('streams a longer list in chunks, with turns of the event loop between them', async () => {
    const item = 'x'.repeat(1000);
    const body = jsonListBody('[', 2000, () => JSON.stringify(item), ']');
    assert.ok(body instanceof Readable);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const { text, pieces } = await collect(body);
    clearInterval(counting);
    assert.equal(text, JSON.stringify(Array.from({ length: 2000 }, () => item)));
    assert.ok(pieces >= Math.floor(text.length / CHUNK_CHARS), `${pieces} pieces`);
    // Timers ran while it was printed: the loop was not held for the whole list.
    assert.ok(turns > 0);
  });
});

describe('listAnswerBody', () => {
  const big = (i: number) => ({ i, text: 'é'.repeat(20_000), nothing: undefined, when: new Date(0) });

  it('prints what JSON.stringify prints, fields without JSON and array holes included', async () => {
    const out = {
      meta: { code: 200, hasMore: true },
      skipped: undefined,
      items: [...Array.from({ length: 40 }, (_, i) => big(i)), undefined, () => 1],
      after: 'tail "quoted"',
      alsoSkipped: () => 2,
    };
    const { text, pieces } = await collect(listAnswerBody(out));
    assert.equal(text, JSON.stringify(out));
    assert.ok(pieces > 1);
  });

  it('leaves a short list of small items to one JSON.stringify', () => {
    assert.equal(listAnswerBody({ meta: { code: 200 }, items: [1, 2, 3] }), undefined);
    assert.equal(listAnswerBody({ meta: { code: 200 }, user: { a: 1 } }), undefined);
  });

  it('prints a short list of large items in chunks', async () => {
    const out = { meta: { code: 200 }, items: Array.from({ length: 20 }, (_, i) => big(i)) };
    const body = listAnswerBody(out);
    assert.ok(body instanceof Readable);
    assert.equal((await collect(body)).text, JSON.stringify(out));
  });
});

describe('dictionaryAnswerBody', () => {
  it('prints what JSON.stringify prints, a long dictionary in chunks', async () => {
    const out = {
      meta: { code: 200 },
      skipped: undefined,
      chains: {
        ...Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`chain-${i}`, { note: 'é"'.repeat(1000), i }])),
        gone: undefined,
      },
      after: { list: [1, 'two'] },
    };
    const { text, pieces } = await collect(dictionaryAnswerBody(out, 'chains'));
    assert.equal(text, JSON.stringify(out));
    assert.ok(pieces > 1);
  });

  it('gives a small or empty dictionary, or a field that is none, as one string', () => {
    for (const chains of [{}, { a: { b: 1 } }, null, [1, 2]]) {
      const out = { meta: { code: 200 }, chains, after: 1 };
      assert.equal(dictionaryAnswerBody(out, 'chains'), JSON.stringify(out));
    }
  });
});
