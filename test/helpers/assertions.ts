import assert from 'node:assert/strict';
import type { ApiResponse } from './server.js';

/** Asserts the spec's error body: status, `meta.param`, and a message that starts with the param. */
export function assertError(res: ApiResponse, status: number, param?: string, messageIncludes?: string): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.meta?.code, status);
  if (param !== undefined) {
    assert.equal(res.body.meta.param, param, JSON.stringify(res.body));
    assert.ok(
      String(res.body.meta.message).startsWith(param),
      `message should start with "${param}": ${res.body.meta.message}`,
    );
  }
  if (messageIncludes) assert.ok(String(res.body.meta.message).includes(messageIncludes), res.body.meta.message);
}

export function assertOk(res: ApiResponse): void {
  assert.equal(res.status, 200, `expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.meta?.code, 200);
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function assertIsoMs(value: unknown, what = 'timestamp'): void {
  assert.ok(typeof value === 'string' && ISO_MS.test(value), `${what} should be ISO 8601 with ms and Z: ${value}`);
}
