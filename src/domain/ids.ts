import { randomBytes } from 'node:crypto';

let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(5).toString('hex');

/**
 * A 24-hex id in the ObjectId layout the SDKs expect (seconds, per-process random, counter), so ids
 * sort roughly by creation and never collide across processes.
 */
export function newId(): string {
  counter = (counter + 1) & 0xffffff;
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + processPart + counter.toString(16).padStart(6, '0');
}
