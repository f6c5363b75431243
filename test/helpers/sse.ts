/** One Server-Sent Events message as a client reads it. */
export interface SseMessage {
  id?: string;
  data?: string;
  /** Comment lines (`: keepalive`), without the colon. */
  comments: string[];
}

export interface SseClient {
  status: number;
  headers: Headers;
  /** The next message with data, or throws after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage & { data: string; event: any }>;
  /** Messages with data that arrive within `ms` (none expected, usually). */
  quiet(ms: number): Promise<SseMessage[]>;
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): void;
}

/** Opens an event stream with fetch (so the Authorization header can be set) and parses its messages. */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const queue: SseMessage[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  if (res.ok && res.body) {
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          text += value;
          let at = text.indexOf('\n\n');
          while (at >= 0) {
            const block = text.slice(0, at);
            text = text.slice(at + 2);
            const m: SseMessage = { comments: [] };
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) m.comments.push(line.slice(1).trim());
              else if (line.startsWith('id: ')) m.id = line.slice(4);
              else if (line.startsWith('data: ')) m.data = (m.data === undefined ? '' : `${m.data}\n`) + line.slice(6);
            }
            queue.push(m);
            at = text.indexOf('\n\n');
          }
          wake?.();
        }
      } catch {
        // Aborted by close().
      }
      done = true;
      wake?.();
    })();
  } else done = true;
  const waitFor = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  const takeData = () => {
    while (queue.length > 0) {
      const m = queue.shift()!;
      if (m.data !== undefined) return m;
    }
    return undefined;
  };
  return {
    status: res.status,
    headers: res.headers,
    async next(timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = takeData();
        if (m) return { ...m, data: m.data!, event: JSON.parse(m.data!) };
        if (done) throw new Error('the stream ended');
        if (Date.now() >= until) throw new Error(`no event within ${timeoutMs} ms`);
        await waitFor(until - Date.now());
      }
    },
    async quiet(ms) {
      await new Promise((r) => setTimeout(r, ms));
      const out: SseMessage[] = [];
      for (let m = takeData(); m; m = takeData()) out.push(m);
      return out;
    },
    ended: () => done,
    close: () => abort.abort(),
  };
}
