import { flat } from './flat-string.js';

const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(o)`, printed once per object when the object is frozen, else printed anew. Freezing
 * is shallow: whoever freezes an object for this vouches that what it holds never changes either.
 * For snapshots that many documents and answers repeat, such as the fence an event names
 * (`eventGeofence` freezes one per fence version): a track prints each of its events twice, in the
 * stored document and in the answer. Kept flat (flat-string.ts).
 */
export function keptJson(o: object): string {
  if (!Object.isFrozen(o)) return JSON.stringify(o);
  let text = texts.get(o);
  if (text === undefined) {
    text = flat(JSON.stringify(o));
    texts.set(o, text);
  }
  return text;
}
