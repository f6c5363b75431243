import { createHash, randomBytes } from 'node:crypto';
import type { KeyLevel } from './project.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

const SECRET_LENGTH = 40;
/** The largest multiple of 36 that fits a byte: bytes at or above it are dropped so no character is likelier. */
const UNBIASED_BELOW = 252;

/**
 * A new API key in Radar's shape, `prj_(test|live)_(pk|sk)_<secret>`: the web SDK tells live from test
 * by `_live_` and refuses `_sk_` keys, so the shape matters. The secret part is 40 uniformly drawn
 * base-36 characters (over 200 bits).
 */
export function generateKey(level: KeyLevel, live: boolean): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const b of randomBytes(SECRET_LENGTH)) {
      if (b < UNBIASED_BELOW && secret.length < SECRET_LENGTH) secret += ALPHABET[b % 36];
    }
  }
  return `prj_${live ? 'live' : 'test'}_${level === 'publishable' ? 'pk' : 'sk'}_${secret}`;
}

/** Keys are high-entropy, so a fast hash is enough to keep them unreadable at rest. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Reads the key from an `Authorization` header value: the key itself, or `Bearer <key>`. */
export function keyFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const v = header.trim();
  const key = /^bearer\s+/i.test(v) ? v.replace(/^bearer\s+/i, '') : v;
  return key === '' ? null : key;
}

export interface ProjectKeys {
  test: { publishable: string; secret: string };
  live: { publishable: string; secret: string };
}

export function generateProjectKeys(): ProjectKeys {
  return {
    test: { publishable: generateKey('publishable', false), secret: generateKey('secret', false) },
    live: { publishable: generateKey('publishable', true), secret: generateKey('secret', true) },
  };
}
