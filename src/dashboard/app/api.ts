/**
 * The public API as the dashboard calls it: every request carries the secret key the person signed in
 * with (kept in this tab's sessionStorage), so the dashboard can do nothing the key could not.
 */

const SECRET = 'whereabouts.secretKey';
const PUBLISHABLE = 'whereabouts.publishableKey';

export const session = {
  secret: (): string | null => sessionStorage.getItem(SECRET),
  publishable: (): string | null => sessionStorage.getItem(PUBLISHABLE),
  save(secret: string, publishable: string | null): void {
    sessionStorage.setItem(SECRET, secret);
    if (publishable) sessionStorage.setItem(PUBLISHABLE, publishable);
    else sessionStorage.removeItem(PUBLISHABLE);
  },
  clear(): void {
    sessionStorage.removeItem(SECRET);
    sessionStorage.removeItem(PUBLISHABLE);
  },
};

/** A refused request: the status and the API's `meta.message` (which starts with the parameter's name). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: API answers are JSON read field by field by the pages.
export type Json = any;

export interface CallOptions {
  /** A JSON body, or a text body with its content type. */
  json?: unknown;
  text?: { body: string; type: string };
  /** The key to send instead of the signed-in secret key (the simulator's publishable key). */
  key?: string | null;
}

/** Calls the API; answers the parsed body, or throws ApiError with the server's message. */
export async function api(method: string, path: string, opts: CallOptions = {}): Promise<Json> {
  const res = await call(method, path, opts);
  const text = await res.text();
  let body: Json = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    if (res.ok) return text;
  }
  if (!res.ok)
    throw new ApiError(
      res.status,
      body?.meta?.message ?? `${method} ${path} answered ${res.status}`,
      body?.meta?.param,
    );
  return body;
}

/** The raw response of a call (for headers, downloads and streams). */
export function call(method: string, path: string, opts: CallOptions = {}, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {};
  const key = opts.key ?? session.secret();
  if (key) headers.authorization = key;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.text) {
    headers['content-type'] = opts.text.type;
    body = opts.text.body;
  }
  return fetch(path, { method, headers, body, signal });
}

/** What a sign-in attempt with `key` tells: null when it is a working secret key, else why not. */
export async function checkSecretKey(key: string): Promise<string | null> {
  if (!/^prj_(test|live)_/.test(key.trim()))
    return 'That is not an API key: keys look like prj_test_sk_… (npm start printed them on the first start).';
  const res = await call('GET', '/v1/settings', { key: key.trim() });
  if (res.ok) return null;
  if (res.status === 401)
    return 'That key is not valid: check it was copied whole, and that it belongs to this server.';
  if (res.status === 403)
    return 'That is a publishable key: sign in with a secret key (prj_test_sk_… or prj_live_sk_…).';
  if (res.status === 402) return 'That key belongs to a disabled project.';
  if (res.status === 429) return 'Too many requests for this key right now; try again in a second.';
  return `The server refused the key (${res.status}).`;
}

export interface StreamHandlers {
  onEvent(event: Json, id: string | null): void;
  onState(state: 'connecting' | 'open' | 'closed' | 'unavailable', detail?: string): void;
}

/**
 * Reads `GET /v1/events/stream` (Server-Sent Events) with fetch, since EventSource cannot send the
 * Authorization header; reconnects after a drop with Last-Event-ID so no event is lost or repeated.
 * Returns a function that stops it.
 */
export function streamEvents(query: string, handlers: StreamHandlers): () => void {
  const stop = new AbortController();
  let lastId: string | null = null;
  const run = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      handlers.onState('connecting');
      try {
        const headers: Record<string, string> = { authorization: session.secret() ?? '', accept: 'text/event-stream' };
        if (lastId) headers['last-event-id'] = lastId;
        const res = await fetch(`/v1/events/stream${query}`, { headers, signal: stop.signal });
        if (res.status === 404) {
          handlers.onState('unavailable', 'This server does not serve the live event stream (GET /v1/events/stream).');
          return;
        }
        if (!res.ok || !res.body) {
          const body = await res.json().catch(() => ({}));
          handlers.onState('unavailable', body?.meta?.message ?? `The event stream answered ${res.status}.`);
          return;
        }
        handlers.onState('open');
        await readMessages(res.body, (id, data) => {
          if (id) lastId = id;
          if (data) handlers.onEvent(JSON.parse(data), id);
        });
      } catch (err) {
        if (stop.signal.aborted) break;
        handlers.onState('closed', (err as Error).message);
      }
      if (!stop.signal.aborted) await new Promise((ok) => setTimeout(ok, 1000));
    }
    handlers.onState('closed');
  };
  void run();
  return () => stop.abort();
}

/** Splits an SSE body into messages (blank-line separated), each its `id:` and joined `data:` lines. */
async function readMessages(body: ReadableStream<Uint8Array>, onMessage: (id: string | null, data: string) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.search(/\r?\n\r?\n/);
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      onMessage(id, data.join('\n'));
      end = buffer.search(/\r?\n\r?\n/);
    }
  }
}

/** Saves a text as a file the browser downloads. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
