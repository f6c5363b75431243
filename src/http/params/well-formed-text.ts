import { invalidParam } from '../../domain/errors.js';

/**
 * Refuses a request whose query, path or body holds text PostgreSQL cannot store, anywhere in it (a
 * value, or a key at any depth), naming the top-level field it is under: the NUL character (text and
 * jsonb hold none) and unpaired UTF-16 surrogates (`"\ud800"` in JSON: no UTF-8 encodes them, and
 * jsonb refuses their escapes). Such a value failed in PostgreSQL only, after the request was taken;
 * SQLite took it but kept a NUL where its text functions stop reading, and a surrogate as bytes no UTF-8
 * reader takes (read back as three U+FFFD). Refused here, both stores answer alike, and nothing a
 * route or a track participant reads from the raw body can carry one in.
 */
export function rejectIllFormedText(source: unknown): void {
  if (source === null || typeof source !== 'object') return;
  for (const key of Object.keys(source)) {
    const keyFault = illFormed(key);
    // JSON's escapes name a bad key without printing what was wrong with it.
    if (keyFault) throw invalidParam(JSON.stringify(key).slice(1, -1), keyFault);
    const fault = faultWithin((source as Record<string, unknown>)[key]);
    if (fault) throw invalidParam(key, fault);
  }
}

const NUL = 'must not contain the NUL character (U+0000).';
const SURROGATE = 'must be well-formed Unicode (it holds an unpaired surrogate).';

function illFormed(text: string): string | undefined {
  if (text.includes('\0')) return NUL;
  return text.isWellFormed() ? undefined : SURROGATE;
}

/** Walked with a stack of its own: a body may nest deeper than the call stack goes. */
function faultWithin(value: unknown): string | undefined {
  if (typeof value === 'string') return illFormed(value);
  if (value === null || typeof value !== 'object') return undefined;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (Array.isArray(next)) {
      // Indexed, allocating nothing: a polygon's positions are thousands of small arrays.
      for (let i = 0; i < next.length; i++) {
        const fault = faultOf(next[i], pending);
        if (fault) return fault;
      }
      continue;
    }
    for (const key of Object.keys(next)) {
      const fault = illFormed(key) ?? faultOf((next as Record<string, unknown>)[key], pending);
      if (fault) return fault;
    }
  }
  return undefined;
}

/** A string's fault; an object or array is left on `pending` to walk. */
function faultOf(item: unknown, pending: object[]): string | undefined {
  if (typeof item === 'string') return illFormed(item);
  if (item !== null && typeof item === 'object') pending.push(item);
  return undefined;
}
