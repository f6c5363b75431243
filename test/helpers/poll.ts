/**
 * Calls `check` every `everyMs` until it holds (true) or `withinMs` have passed (false): another
 * process's write arrives within milliseconds, but CI runs two test files at once on two cores.
 */
export async function poll(check: () => Promise<boolean>, withinMs: number, everyMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Reads again every 50 ms until `done` holds of what `read` returned, for at most `withinMs`: the last read. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, withinMs = 5000): Promise<T> {
  let value!: T;
  await poll(
    async () => {
      value = await read();
      return done(value);
    },
    withinMs,
    50,
  );
  return value;
}
