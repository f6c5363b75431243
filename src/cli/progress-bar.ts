/** Where progress goes: stderr, so that stdout keeps only results (summaries, keys). */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const WIDTH = 24;

/**
 * A stage progress bar for `importWorld`'s `onProgress`: redrawn in place on a terminal, one line per
 * stage otherwise (logs, CI, tests), each with the seconds elapsed.
 */
export function progressBar(title: string, out: ProgressOutput = process.stderr) {
  const started = Date.now();
  return (stage: string, done: number, total: number): void => {
    const filled = Math.round((WIDTH * done) / total);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const line = `${title} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total} ${stage} (${seconds} s)`;
    if (out.isTTY) out.write(`\r\x1b[K${line}${done === total ? '\n' : ''}`);
    else out.write(`${line}\n`);
  };
}
